"""A second browser of Ana's, approved from her first with the code it shows, reads her family's sealed post.

Ana signs up in her desktop browser, makes an encrypted family group and posts a photo with a caption to it: that
browser is her device. She signs in on her phone (a phone-sized browser): settings say her keys are on another
device and offer "Approve from another device", which shows a code. On the desktop, settings list the phone
waiting; a wrong code is refused and nothing is signed; the phone's code approves it, and the page says how her
safety number changed. The phone notices, becomes her device, and opens the family's post and photo. Then the
same the other way round: a laptop at desktop size shows its code; the phone declines it, the laptop is told and
asks again, and the phone approves it. Last, the desktop
makes a recovery key, told before and after that her safety number changes. Screenshots go to .test-artifacts/.

The photo is drawn here with Python's zlib (a PNG of noise), not ImageMagick, which the test command does not
install.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL.
"""

import os
import random
import re
import struct
import tempfile
import unittest
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, browser
from e2e_support import E2EStory

CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")


def noise_png(path, width=640, height=420):
    """A PNG of random pixels: a photo's stand-in, written with the standard library alone."""
    rows = b"".join(b"\x00" + random.randbytes(width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
                   + chunk(b"IEND", b""))


class DeviceApprovalStory(E2EStory):
    def setUp(self):
        super().setUp()
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.photo = os.path.join(folder.name, "harbour.png")
        noise_png(self.photo)

    def sign_in(self, driver, username):
        driver.get(f"{BASE}/signin")
        driver.find_element(By.ID, "login").send_keys(username)
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/signin'] button[type=submit]"))
        self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")))

    def chain_length(self, driver):
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/e2e/me/device-chain', {headers: {Accept: 'application/json'}}).then((r) => r.json())"
            ".then((c) => done(c.statements.length), (e) => done(String(e)))")

    def show_card(self, driver):
        driver.execute_script("document.getElementById('e2e-device').scrollIntoView({block: 'start'})")

    def ask_for_approval(self, driver, screenshot):
        """Settings on a browser of Ana's that is not a device yet: it asks, and answers the code it shows."""
        driver.get(f"{BASE}/settings")
        button = self.wait_long(driver, lambda d: d.find_element(By.ID, "e2e-approval-request").is_displayed()
                                and d.find_element(By.ID, "e2e-approval-request"), "no Approve from another device")
        self.assertIn("Approve this browser from one of them", self.status(driver))
        self.press(driver, button)
        code = self.wait_long(driver, lambda d: CODE.match(d.find_element(By.ID, "e2e-device-code").text)
                              and d.find_element(By.ID, "e2e-device-code").text, "no code shown")
        self.assertIn(code, self.status(driver))
        self.show_card(driver)
        self.shot(driver, screenshot)
        self.check_accessibility(driver, "settings showing a device code")
        return code

    def approve(self, driver, code, screenshots, wrong_first=False):
        """Settings on a device of Ana's: the waiting request, a wrong code refused, then `code` approved."""
        driver.get(f"{BASE}/settings")
        item = self.wait_long(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#e2e-request-list li"),
                              "the new device is not listed as waiting")
        self.assertIn("Web browser", item.text)
        self.assertIn("safety number changes", driver.find_element(By.ID, "e2e-requests").text)
        field = item.find_element(By.CSS_SELECTOR, "input[type=text]")
        self.show_card(driver)
        self.shot(driver, screenshots[0])
        self.check_accessibility(driver, "settings listing a waiting device")
        before = self.chain_length(driver)
        if wrong_first:
            field.send_keys("0000-0000-0000" if code != "0000-0000-0000" else "1111-1111-1111")
            self.press(driver, item.find_element(By.CSS_SELECTOR, "button[type=submit]"))
            alert = self.wait_long(driver, lambda d: item.find_element(By.CSS_SELECTOR, ".alert").is_displayed()
                                   and item.find_element(By.CSS_SELECTOR, ".alert"), "a wrong code was not refused")
            self.assertIn("Nothing was signed", alert.text)
            self.assertEqual(self.chain_length(driver), before, "a wrong code added a device")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
            self.shot(driver, screenshots[1])
            field.clear()
        # Typed as a person reads it aloud: lower case, spaces for dashes.
        field.send_keys(code.lower().replace("-", " "))
        self.press(driver, item.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        self.wait_long(driver, lambda d: "Approved Web browser" in self.status(d), "the approval did not finish")
        self.assertIn("Your safety number changed from", self.status(driver))
        self.assertIn("will see the new one", self.status(driver))
        self.assertEqual(self.chain_length(driver), before + 1)
        self.show_card(driver)
        self.shot(driver, screenshots[-1])
        self.no_script_errors(driver)

    def test_a_second_browser_is_approved_with_its_code_and_reads_the_family(self):
        desktop, phone = self.ana, self.bo
        username = f"ana_{self.suffix}"
        caption = f"Harbour swim {self.suffix}"
        self.sign_up(desktop, username)

        # Ana makes an encrypted family group on her desktop; it becomes her device, and she posts a photo.
        desktop.get(f"{BASE}/groups/new")
        desktop.find_element(By.ID, "group-name").send_keys(f"Family {self.suffix}")
        self.press(desktop, desktop.find_element(By.ID, "group-encrypted"))
        self.press(desktop, desktop.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(desktop, ec.url_contains("done=created"))
        group_url = desktop.current_url.split("?")[0]
        self.wait_long(desktop, lambda d: self.status(d) == "This browser holds this group's keys.",
                       "the desktop did not make the group's keys")
        desktop.find_element(By.ID, "sealed-text").send_keys(caption)
        desktop.find_element(By.ID, "sealed-photos").send_keys(self.photo)
        self.press(desktop, desktop.find_element(By.ID, "sealed-submit"))
        post = self.wait_long(desktop, lambda d: self.opened_post(d, caption), "the post did not open")
        post_id = post.get_attribute("data-post-id")

        # She signs in on her phone: its settings offer to approve it from her desktop, and show a code.
        self.sign_in(phone, username)
        phone.get(group_url)
        self.wait_long(phone, lambda d: "Settings, Encryption" in self.status(d), "the group page did not say how")
        code = self.ask_for_approval(phone, "devices-01-phone-shows-its-code")

        # On the desktop: the phone waits; a wrong code signs nothing; the phone's code approves it.
        self.approve(desktop, code, ["devices-02-desktop-lists-the-phone", "devices-03-desktop-wrong-code",
                                     "devices-04-desktop-approved"], wrong_first=True)

        # The phone notices, becomes her device, and opens the family's post and its photo.
        self.wait_long(phone, lambda d: "This browser is a device of your account (2 in all)" in self.status(d),
                       "the phone did not notice its approval")
        self.show_card(phone)
        self.shot(phone, "devices-05-phone-is-a-device")
        phone.get(group_url)
        self.wait_long(phone, lambda d: self.image_loaded(d, self.opened_post(d, caption)),
                       "the phone did not open the post")
        phone.execute_script("arguments[0].scrollIntoView({block: 'start'})", self.opened_post(phone, caption))
        self.shot(phone, "devices-06-phone-reads-the-post")
        self.no_script_errors(phone)

        # The other way round: a laptop at desktop size shows its code, and the phone approves it.
        laptop = browser()
        self.addCleanup(laptop.quit)
        self.sign_in(laptop, username)
        code = self.ask_for_approval(laptop, "devices-07-laptop-shows-its-code")
        # The phone declines it first: the laptop is told so, and asks again, with the same keys and code.
        phone.get(f"{BASE}/settings")
        item = self.wait_long(phone, lambda d: d.find_element(By.CSS_SELECTOR, "#e2e-request-list li"),
                              "the laptop is not listed as waiting")
        self.press(phone, item.find_element(By.XPATH, ".//button[text()='Decline']"))
        self.wait_long(phone, lambda d: "Declined Web browser: it gets no keys." in self.status(d), "no decline")
        self.wait_long(laptop, lambda d: "declined or ran out" in self.status(d), "the laptop was not told")
        self.show_card(laptop)
        self.shot(laptop, "devices-07b-laptop-was-declined")
        self.press(laptop, laptop.find_element(By.ID, "e2e-approval-request"))
        self.wait_long(laptop, lambda d: d.find_element(By.ID, "e2e-device-code").text == code
                       and d.find_element(By.ID, "e2e-approval-waiting").is_displayed(), "the laptop did not ask again")
        self.approve(phone, code, ["devices-08-phone-lists-the-laptop", "devices-09-phone-approved"])
        self.wait_long(laptop, lambda d: "This browser is a device of your account (3 in all)" in self.status(d),
                       "the laptop did not notice its approval")
        laptop.get(f"{BASE}/posts/{post_id}")
        self.wait_long(laptop, lambda d: self.image_loaded(d, self.opened_post(d, caption)),
                       "the laptop did not open the post")
        self.shot(laptop, "devices-10-laptop-reads-the-post")
        self.no_script_errors(laptop)

        # A recovery key, made on the desktop, says before and after that her safety number changes.
        desktop.get(f"{BASE}/settings")
        setup = self.wait_long(desktop, lambda d: d.find_element(By.ID, "e2e-recovery-setup").is_displayed()
                               and d.find_element(By.ID, "e2e-recovery-setup"), "no recovery key offered")
        self.assertIn("changes your safety number", desktop.find_element(By.ID, "e2e-recovery-notice").text)
        self.press(desktop, setup)
        self.wait_long(desktop, lambda d: "Your safety number changed from" in self.status(d),
                       "making the recovery key did not say the safety number changed")
        self.assertEqual(len(desktop.find_elements(By.CSS_SELECTOR, "#e2e-recovery-words li")), 24)
        self.show_card(desktop)
        self.shot(desktop, "devices-11-recovery-key-changes-the-number")
        self.no_script_errors(desktop)


if __name__ == "__main__":
    unittest.main()
