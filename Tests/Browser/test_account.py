"""Account flows in a real browser: settings (units, time zone offered from the browser, channels this server
can't deliver shown as such), forgot password with the mail read from the local SMTP sink, sign-in that
returns to the page that asked for it, and the phone's compact header with its menu.

Run through scripts/browser-test, which starts the mail sink and the server and sets SPOTTER_MAIL_DIR.
"""

import email
import email.policy
import os
import re
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory

MAIL_DIR = os.environ.get("SPOTTER_MAIL_DIR", "")


def mails_to(address):
    """Every message the sink holds for `address`, oldest first, as (subject, plain text)."""
    found = []
    for name in sorted(n for n in os.listdir(MAIL_DIR) if n.endswith(".eml")):
        with open(os.path.join(MAIL_DIR, name), "rb") as file:
            message = email.message_from_binary_file(file, policy=email.policy.default)
        if address.lower() in str(message["To"]).lower():
            text = message.get_body(preferencelist=("plain",)).get_content()
            found.append((str(message["Subject"]), text))
    return found


class AccountStory(BrowserStory):
    def test_settings_forgot_password_and_return_to(self):
        ana_name, bo_name = f"ana_{self.suffix}", f"bo_{self.suffix}"

        # Ana, whose browser is in Berlin, signs up: settings offer her browser's zone, since she's on UTC.
        self.ana.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Berlin"})
        self.sign_up(self.ana, ana_name)
        self.ana.get(f"{BASE}/settings")
        self.assertEqual(Select(self.ana.find_element(By.ID, "time-zone")).first_selected_option.get_attribute("value"),
                         "Europe/Berlin")
        # Push isn't set up on this server: shown, disabled, unticked, and said so. Email is (the mail sink).
        push = self.ana.find_element(By.CSS_SELECTOR, "input[name=push]")
        self.assertFalse(push.is_enabled())
        self.assertFalse(push.is_selected())
        self.assertIn("not set up on this server", push.find_element(By.XPATH, "..").text)
        self.assertTrue(self.ana.find_element(By.CSS_SELECTOR, "input[name=email]").is_enabled())
        self.check_accessibility(self.ana, "settings")
        self.shot(self.ana, "account-01-settings")

        # She weighs in pounds and saves: the page says so and keeps both choices.
        Select(self.ana.find_element(By.ID, "units")).select_by_value("lb")
        self.ana.find_element(By.CSS_SELECTOR, "#profile-form button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "saved-notice")))
        self.assertEqual(Select(self.ana.find_element(By.ID, "units")).first_selected_option.get_attribute("value"), "lb")
        self.assertEqual(Select(self.ana.find_element(By.ID, "time-zone")).first_selected_option.get_attribute("value"),
                         "Europe/Berlin")

        # She signs out and has forgotten her password: the sign-in page leads to a form that mails a link.
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
        self.wait(self.ana, ec.url_contains("/signin"))
        self.ana.find_element(By.LINK_TEXT, "Forgot your password?").click()
        self.wait(self.ana, ec.url_contains("/forgot-password"))
        self.check_accessibility(self.ana, "forgot password")
        self.ana.find_element(By.ID, "email").send_keys(f"{ana_name}@example.com")
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/forgot-password'] button").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "reset-sent")))
        self.shot(self.ana, "account-02-reset-sent")

        # The mail arrives at the local SMTP server, with a link back to this server.
        self.wait(self.ana, lambda d: mails_to(f"{ana_name}@example.com"), "no reset mail arrived")
        subject, text = mails_to(f"{ana_name}@example.com")[-1]
        self.assertIn("Reset your Spotter password", subject)
        link = re.search(r"(http://\S+/reset-password\?token=\S+)", text).group(1)
        self.assertTrue(link.startswith(BASE))

        # The link leads to a form that sets the new password; sign-in works with it.
        self.ana.get(link)
        self.check_accessibility(self.ana, "reset password")
        self.ana.find_element(By.ID, "password").send_keys("a brand new password")
        self.shot(self.ana, "account-03-reset-form")
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/reset-password'] button").click()
        self.wait(self.ana, ec.url_contains("/signin?reset=1"))
        self.assertIn("Your password is changed", self.ana.find_element(By.CSS_SELECTOR, ".notice").text)
        self.ana.find_element(By.ID, "login").send_keys(ana_name)
        self.ana.find_element(By.ID, "password").send_keys("a brand new password" + Keys.ENTER)
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")),
                  "the new password did not sign in")
        # The link was for one use only.
        self.ana.get(link)
        self.ana.find_element(By.ID, "password").send_keys("yet another password")
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/reset-password'] button").click()
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, ".alert")))
        self.assertIn("not valid", self.ana.find_element(By.CSS_SELECTOR, ".alert").text)

        # Bo, on a phone: the quiet-hours row gives each label room (one line each, nothing squeezed).
        self.sign_up(self.bo, bo_name)
        self.bo.get(f"{BASE}/settings")
        zone = self.bo.find_element(By.ID, "quiet-zone")
        self.bo.execute_script("arguments[0].scrollIntoView({block: 'center'})", zone)
        for field in ("quiet-start", "quiet-end", "quiet-zone"):
            label = self.bo.find_element(By.CSS_SELECTOR, f"label[for='{field}']")
            self.assertLess(label.size["height"], 30, f"the {field} label wraps")
            self.assertGreater(self.bo.find_element(By.ID, field).size["width"], 120, f"{field} is squeezed")
        self.shot(self.bo, "account-05-phone-quiet-hours")
        self.check_accessibility(self.bo, "settings on a phone")

        # Bo's header is one row, and the rest of the navigation is in a menu.
        self.bo.get(f"{BASE}/")
        header = self.bo.find_element(By.CSS_SELECTOR, "header.topbar")
        self.assertLess(header.size["height"], 80, "the phone header should be one row")
        menu = self.bo.find_element(By.CSS_SELECTOR, "details.menu")
        self.assertFalse(self.bo.find_element(By.CSS_SELECTOR, ".menu-panel a[href='/settings']").is_displayed())
        menu.find_element(By.TAG_NAME, "summary").click()
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, ".menu-panel a[href='/settings']").is_displayed())
        self.check_accessibility(self.bo, "phone header with the menu open")
        self.shot(self.bo, "account-04-phone-menu-open")
        # Escape closes it again, and the keyboard opens it (it is a <summary>).
        self.bo.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, "details.menu").get_attribute("open") is None)
        self.bo.find_element(By.CSS_SELECTOR, "details.menu summary").send_keys(Keys.ENTER)
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, "details.menu").get_attribute("open") is not None)
        self.bo.find_element(By.CSS_SELECTOR, ".menu-panel form[action='/signout'] button").click()
        self.wait(self.bo, ec.url_contains("/signin"))

        # Signed out, Bo opens the compose page: sign-in brings him back to it.
        self.bo.get(f"{BASE}/compose")
        self.wait(self.bo, ec.url_contains("/signin?return_to="))
        self.bo.find_element(By.ID, "login").send_keys(bo_name)
        self.bo.find_element(By.ID, "password").send_keys("correct horse battery" + Keys.ENTER)
        self.wait(self.bo, ec.url_matches(r"/compose$"), "sign-in did not return to compose")
        self.no_script_errors(self.bo)


if __name__ == "__main__":
    unittest.main()
