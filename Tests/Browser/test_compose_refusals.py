"""What the compose page says when it refuses, in a real browser: a note over the new-account limit is told on
the note's own form (Ana, desktop); a photo of a type Spotter does not take, or larger than its limit, is
refused in words before anything is posted (Bo, phone). No image is drawn: the files are refused for their
type and size.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import os
import tempfile
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory


class ComposeRefusalStory(BrowserStory):
    def post_note(self, driver, text):
        driver.get(f"{BASE}/compose")
        driver.find_element(By.ID, "note-text").send_keys(text)
        button = driver.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()

    def no_script_errors(self, driver):
        """As BrowserStory's, but a refusal's status is the page working as meant, not a script error."""
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "favicon" not in entry["message"] and "status of 4" not in entry["message"]]
        self.assertEqual(errors, [], "the page's script reported errors")

    def test_refusals_say_where_and_what(self):
        ana, bo = self.ana, self.bo
        self.sign_up(ana, f"ana_{self.suffix}")
        self.sign_up(bo, f"bo_{self.suffix}")

        # Ana, a new account, posts five notes this hour; the sixth is refused on the note's form.
        for n in range(5):
            self.post_note(ana, f"Note {n} #run")
            self.wait(ana, ec.url_contains("/feed/following"))
        self.post_note(ana, "One too many #run")
        self.wait(ana, ec.presence_of_element_located((By.ID, "form-summary")), "no refusal shown")
        summary = ana.find_element(By.ID, "form-summary")
        note_form = ana.find_element(By.ID, "note-form")
        self.assertIn("New accounts can post 5 times an hour", summary.text)
        self.assertTrue(ana.execute_script("return arguments[0].contains(arguments[1])", note_form, summary),
                        "the note's refusal is not on the note's form")
        self.assertEqual(ana.find_element(By.CSS_SELECTOR, "#workout-form").find_elements(By.CLASS_NAME, "alert"), [])
        self.assertEqual(ana.find_element(By.ID, "note-text").get_attribute("value"), "One too many #run")
        self.assertEqual(ana.switch_to.active_element.get_attribute("id"), "form-summary")
        ana.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        self.shot(ana, "compose-refusal-01-note-limit-desktop")
        self.check_accessibility(ana, "compose (note refused)")

        # Bo, on a phone, picks a GIF and a 17 MB file: each is refused in words, the limit named.
        folder = tempfile.mkdtemp()
        gif = os.path.join(folder, "dance.gif")
        with open(gif, "wb") as file:
            file.write(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
        huge = os.path.join(folder, "huge.jpg")
        with open(huge, "wb") as file:
            file.truncate(17 << 20)
        bo.get(f"{BASE}/compose")
        picker = bo.find_element(By.ID, "note-photo")
        picker.send_keys(gif)
        self.wait(bo, lambda d: "dance.gif: the photo is not a type Spotter takes" in d.find_element(
            By.ID, "note-photos").text, "the GIF was not refused in words")
        picker.send_keys(huge)
        self.wait(bo, lambda d: "huge.jpg: the photo is larger than 16 MB." in d.find_element(
            By.ID, "note-photos").text, "the large file was not refused naming the limit")
        text = bo.find_element(By.ID, "note-photos").text
        self.assertIn("JPEG, PNG, HEIC and WebP", text)
        self.assertNotIn("image/", text)
        photos = bo.find_element(By.ID, "note-photos")
        bo.execute_script("arguments[0].scrollIntoView({block: 'center'})", photos)
        self.shot(bo, "compose-refusal-02-photos-phone")
        self.no_script_errors(bo)


if __name__ == "__main__":
    unittest.main()
