"""The admin page in a real browser: an admin finds someone by username, makes them a password-reset link (shown
once) that they open in their own browser, and sets their email; at desktop and phone sizes. A member who opens
the page is refused.

Run through scripts/browser-test, which starts the server and sets SPOTTER_DATA_DIR and SPOTTER_SERVER_PID: the
story makes its admins with `spotter admin grant`, the server's own executable, as an operator would.
"""

import os
import subprocess
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory, browser

DATA_DIR = os.environ.get("SPOTTER_DATA_DIR", "")


def grant_admin(username):
    """`spotter admin grant <username>` on the server's database, with the executable the server runs."""
    spotter = os.readlink(f"/proc/{os.environ['SPOTTER_SERVER_PID']}/exe")
    subprocess.run([spotter, "admin", "grant", username, "--data-dir", DATA_DIR, "--log-level", "error"],
                   check=True, capture_output=True)


class AdminStory(BrowserStory):
    def test_admin_resets_a_password_and_sets_an_email(self):
        ana_name, bo_name, cy_name = f"ana_{self.suffix}", f"bo_{self.suffix}", f"cy_{self.suffix}"
        cy = browser()
        self.addCleanup(cy.quit)

        # Ana (desktop) and Bo (phone) run the club's server; Cy is a member who can't get in any more.
        self.sign_up(self.ana, ana_name)
        self.sign_up(self.bo, bo_name)
        self.sign_up(cy, cy_name)
        grant_admin(ana_name)
        grant_admin(bo_name)

        # Cy, a member, finds no admin page and no way to it.
        cy.get(f"{BASE}/settings")
        self.assertEqual(cy.find_elements(By.CSS_SELECTOR, "a[href='/admin']"), [])
        cy.get(f"{BASE}/admin?username={ana_name}")
        self.assertIn("Only admins", cy.find_element(By.TAG_NAME, "main").text)
        self.assertNotIn(f"{ana_name}@example.com", cy.page_source)
        cy.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
        self.wait(cy, ec.url_contains("/signin"))

        # Ana goes from her settings to the admin page and looks Cy up.
        self.ana.get(f"{BASE}/settings")
        self.ana.find_element(By.CSS_SELECTOR, "a[href='/admin']").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "admin-username")))
        self.ana.find_element(By.ID, "admin-username").send_keys(cy_name)
        self.ana.find_element(By.CSS_SELECTOR, "#admin-find button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "admin-person")))
        self.assertEqual(self.ana.find_element(By.ID, "person-email").text, f"{cy_name}@example.com")
        self.check_accessibility(self.ana, "the admin page")
        self.shot(self.ana, "admin-01-person")

        # She makes Cy a reset link: the page shows it once, with how long it works.
        self.ana.find_element(By.CSS_SELECTOR, "#reset-link-form button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "reset-link")))
        link = self.ana.find_element(By.ID, "reset-link").text
        self.assertTrue(link.startswith(f"{BASE}/reset-password?token="), link)
        self.assertIn("once", self.ana.find_element(By.ID, "reset-link-notice").text)
        self.check_accessibility(self.ana, "the admin page with a link")
        self.shot(self.ana, "admin-02-reset-link")
        self.ana.get(f"{BASE}/admin?username={cy_name}")
        self.assertNotIn(link, self.ana.page_source, "the link shows only once")

        # Cy opens it in her own browser and chooses a new password, which signs her in.
        cy.get(link)
        cy.find_element(By.ID, "password").send_keys("cy's brand new password")
        cy.find_element(By.CSS_SELECTOR, "form[action='/reset-password'] button").click()
        self.wait(cy, ec.url_contains("/signin?reset=1"))
        cy.find_element(By.ID, "login").send_keys(cy_name)
        cy.find_element(By.ID, "password").send_keys("cy's brand new password")
        cy.find_element(By.CSS_SELECTOR, "form[action='/signin'] button").click()
        self.wait(cy, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")),
                  "the new password did not sign in")

        # Bo, on his phone, sets Cy's email: Ana's address is taken and says so under the field; a new one is set.
        self.bo.get(f"{BASE}/admin?username={cy_name}")
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "person-new-email")))
        self.bo.find_element(By.ID, "person-new-email").send_keys(f"{ana_name}@example.com")
        self.bo.find_element(By.CSS_SELECTOR, "#set-email-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "person-new-email-error")))
        self.assertIn("already taken", self.bo.find_element(By.ID, "person-new-email-error").text)
        self.assertEqual(self.bo.find_element(By.ID, "person-new-email").get_attribute("aria-invalid"), "true")
        self.bo.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                               self.bo.find_element(By.ID, "person-new-email-error"))
        self.shot(self.bo, "admin-03-phone-email-taken")
        # The refusal's 409 is the only thing the console reports.
        severe = [entry["message"] for entry in self.bo.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertTrue(all("status of 409" in message for message in severe), severe)
        field = self.bo.find_element(By.ID, "person-new-email")
        field.clear()
        field.send_keys(f"{cy_name}@new.example")
        self.bo.find_element(By.CSS_SELECTOR, "#set-email-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "saved-notice")))
        self.assertEqual(self.bo.find_element(By.ID, "person-email").text, f"{cy_name}@new.example")
        # Nothing on the phone runs wider than the screen.
        width = self.bo.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, self.bo.execute_script("return window.innerWidth"), "the page scrolls sideways")
        self.check_accessibility(self.bo, "the admin page on a phone")
        self.shot(self.bo, "admin-04-phone-email-set")
        # The phone shows a reset link whole, wrapped within the screen.
        self.bo.find_element(By.CSS_SELECTOR, "#reset-link-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "reset-link")))
        width = self.bo.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, self.bo.execute_script("return window.innerWidth"), "the link runs off the screen")
        self.bo.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                               self.bo.find_element(By.ID, "reset-link"))
        self.shot(self.bo, "admin-05-phone-reset-link")

        # Cy's inbox says her email was changed.
        cy.get(f"{BASE}/notifications")
        self.assertIn("Your email was changed", cy.find_element(By.TAG_NAME, "main").text)
        self.no_script_errors(self.ana)
        self.no_script_errors(self.bo)


if __name__ == "__main__":
    unittest.main()
