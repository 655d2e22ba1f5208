"""What the account pages say when they refuse a form, in a real browser at desktop and phone sizes: a plain
sentence under the input it is about ("The current password is not right."), and a link's refusal as a sentence
above its form, never "Current Password: is not right" or "Token: this link is not valid".

Run through scripts/browser-test.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory


class AccountErrorsStory(BrowserStory):
    def field_error(self, driver, input_id):
        """The sentence under an input, checked to be the input's own description."""
        field = driver.find_element(By.ID, input_id)
        self.assertEqual(field.get_attribute("aria-invalid"), "true", f"{input_id} is not marked")
        error = driver.find_element(By.ID, f"{input_id}-error")
        self.assertIn(f"{input_id}-error", field.get_attribute("aria-describedby"))
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", error)
        return error.text

    def test_refusals_are_sentences_by_their_fields(self):
        ana_name, bo_name = f"ana_{self.suffix}", f"bo_{self.suffix}"

        # Ana, at her desk, changes her password but mistypes the current one.
        self.sign_up(self.ana, ana_name)
        self.ana.get(f"{BASE}/settings")
        self.ana.find_element(By.ID, "current-password").send_keys("not my password")
        self.ana.find_element(By.ID, "new-password").send_keys("a brand new password")
        self.ana.find_element(By.CSS_SELECTOR, "#password-form button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "current-password-error")))
        # The page comes back at its top, which lists the problem as a link to the field below.
        summary = self.ana.find_element(By.CSS_SELECTOR, "#settings-problems a[href='#current-password']")
        self.assertEqual(summary.text, "The current password is not right.")
        self.assertTrue(summary.is_displayed())
        self.shot(self.ana, "account-errors-00-settings-top")
        self.assertEqual(self.field_error(self.ana, "current-password"), "The current password is not right.")
        self.assertNotIn("Current Password:", self.ana.page_source)
        self.shot(self.ana, "account-errors-01-current-password")
        self.check_accessibility(self.ana, "settings with a refused password")

        # Bo, on his phone, signs up with Ana's name and an address that is no address.
        self.bo.get(f"{BASE}/signup")
        self.bo.find_element(By.ID, "username").send_keys(ana_name)
        self.bo.find_element(By.ID, "email").send_keys("bo at home")
        self.bo.find_element(By.ID, "password").send_keys("correct horse battery")
        # The browser's own check would stop an address without "@"; the server's sentence is what is tested.
        self.bo.execute_script("document.querySelector(\"form[action='/signup']\").noValidate = true")
        self.bo.find_element(By.CSS_SELECTOR, "form[action='/signup'] button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "email-error")))
        self.assertEqual(self.field_error(self.bo, "email"), "The email is not an email address.")
        self.shot(self.bo, "account-errors-02-phone-signup")
        self.check_accessibility(self.bo, "sign-up with a refused email")

        # He opens a reset link that was spent long ago: the page says so in a sentence.
        self.sign_up(self.bo, bo_name)
        self.bo.get(f"{BASE}/reset-password?token=spl_spent_long_ago")
        self.bo.find_element(By.ID, "password").send_keys("a brand new password")
        self.bo.find_element(By.CSS_SELECTOR, "form[action='/reset-password'] button").click()
        self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, ".alert")))
        alert = self.bo.find_element(By.CSS_SELECTOR, ".alert").text
        self.assertEqual(alert, "This link is not valid: it was used already, has expired, or is wrong.")
        self.assertNotIn("Token", self.bo.find_element(By.TAG_NAME, "main").text)
        self.shot(self.bo, "account-errors-03-phone-spent-link")
        self.check_accessibility(self.bo, "a spent reset link")


if __name__ == "__main__":
    unittest.main()
