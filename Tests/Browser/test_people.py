"""People in a real browser: the first-run page, a private account approving a follow request from its inbox,
a request cancelled, the followers page, block and unblock from the people settings, the security page, and
the inbox badge clearing when the inbox opens. Axe-core checks every page, at desktop and phone sizes.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory, browser


class PeopleStory(BrowserStory):
    def make_private(self, driver):
        driver.get(f"{BASE}/settings")
        Select(driver.find_element(By.ID, "privacy")).select_by_value("private")
        driver.find_element(By.CSS_SELECTOR, "#profile-form button[type=submit]").click()
        self.wait(driver, ec.url_contains("saved=1"), "the profile did not save")

    def test_people_follow_approve_block(self):
        ana_name, bo_name, cy_name = f"ana_{self.suffix}", f"bo_{self.suffix}", f"cy_{self.suffix}"

        # Bo joins on his phone and lands on the welcome page, with people to follow and the way to his feed.
        self.sign_up(self.bo, bo_name)
        self.wait(self.bo, ec.url_contains("/welcome"), "signing up did not land on the welcome page")
        self.assertIn("Welcome to Spotter", self.bo.find_element(By.TAG_NAME, "h1").text)
        self.assertTrue(self.bo.find_element(By.ID, "go-to-feed").is_displayed())
        self.shot(self.bo, "people-01-welcome-phone")
        self.check_accessibility(self.bo, "welcome (phone)")
        self.make_private(self.bo)

        # Ana joins at her desk; Bo's private profile offers a request, and once asked, a way to cancel it.
        self.sign_up(self.ana, ana_name)
        self.wait(self.ana, ec.url_contains("/welcome"))
        self.assertIn(bo_name, self.ana.find_element(By.ID, "suggestions").text)
        self.shot(self.ana, "people-01-welcome-suggestions")
        self.check_accessibility(self.ana, "welcome (desktop)")
        self.ana.get(f"{BASE}/u/{bo_name}")
        button = self.ana.find_element(By.ID, "follow-button")
        self.assertEqual(button.text, "Request to follow")
        button.click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "cancel-request")), "no Cancel after asking")
        self.assertEqual(self.ana.find_element(By.ID, "request-state").text.lower(), "requested")
        self.shot(self.ana, "people-02-requested")
        self.check_accessibility(self.ana, "profile with a pending request")

        # Bo's badge shows the request; opening the inbox clears it, the item stays marked unread.
        self.bo.get(f"{BASE}/")
        self.wait(self.bo, lambda d: self.badge(d) == 1, "the badge did not count the request")
        self.bo.get(f"{BASE}/notifications")
        self.wait(self.bo, ec.url_contains("/notifications"))
        self.assertEqual(self.badge(self.bo), 0, "opening the inbox did not clear the badge")
        item = self.bo.find_element(By.CSS_SELECTOR, ".inbox-item.unread")
        self.assertIn("asked to follow you", item.text)
        self.shot(self.bo, "people-03-request-in-inbox-phone")
        self.check_accessibility(self.bo, "inbox with a follow request (phone)")

        # He approves it right there; the notice goes, and Ana follows him.
        item.find_element(By.CSS_SELECTOR, f"button[aria-label='Approve {ana_name}']").click()
        self.wait(self.bo, lambda d: "asked to follow you" not in d.find_element(By.TAG_NAME, "main").text,
                  "the request's notice stayed after approving")
        self.ana.get(f"{BASE}/u/{bo_name}")
        self.assertIn("Following", self.ana.find_element(By.ID, "follow-button").text)

        # The followers count leads to the list, which Ana, now a follower, may see.
        self.ana.find_element(By.ID, "followers-link").click()
        self.wait(self.ana, ec.url_contains(f"/u/{bo_name}/followers"))
        self.assertIn(ana_name, self.ana.find_element(By.CSS_SELECTOR, ".people-list").text)
        self.shot(self.ana, "people-04-followers")
        self.check_accessibility(self.ana, "followers")
        self.bo.get(f"{BASE}/u/{bo_name}/followers")
        self.check_accessibility(self.bo, "followers (phone)")

        # Ana blocks Bo (after a confirm), lands on her people settings, and unblocks him from the list.
        self.ana.get(f"{BASE}/u/{bo_name}")
        self.ana.find_element(By.CSS_SELECTOR, "details.profile-more summary").click()
        self.check_accessibility(self.ana, "profile with its block and mute")
        self.ana.find_element(By.ID, "block-button").click()
        self.wait(self.ana, ec.alert_is_present(), "blocking did not ask first")
        self.ana.switch_to.alert.accept()
        self.wait(self.ana, ec.url_contains("/settings/people"), "blocking did not land on the people settings")
        self.assertIn(bo_name, self.ana.find_element(By.ID, "blocked-list").text)
        self.shot(self.ana, "people-05-blocked-list")
        self.check_accessibility(self.ana, "blocked and muted")
        self.ana.find_element(By.CSS_SELECTOR, f"#blocked-list button[aria-label='Unblock {bo_name}']").click()
        self.wait(self.ana, lambda d: "You unblocked" in d.find_element(By.TAG_NAME, "main").text)
        self.assertIn("You haven't blocked anyone", self.ana.find_element(By.TAG_NAME, "main").text)

        # On the phone: a second private account, Cy, whom Ana asks and then thinks better of.
        self.bo.execute_script("document.querySelector(\"form[action='/signout']\").submit()")
        self.wait(self.bo, ec.url_contains("/signin"))
        self.sign_up(self.bo, cy_name)
        self.make_private(self.bo)
        self.ana.get(f"{BASE}/u/{cy_name}")
        self.ana.find_element(By.ID, "follow-button").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "cancel-request")))
        self.ana.find_element(By.ID, "cancel-request").click()
        self.wait(self.ana, ec.text_to_be_present_in_element((By.ID, "follow-button"), "Request to follow"),
                  "cancelling did not offer the request again")
        self.bo.get(f"{BASE}/follow-requests")
        self.assertIn("No one is waiting", self.bo.find_element(By.TAG_NAME, "main").text)
        self.shot(self.bo, "people-06-no-requests-phone")
        self.check_accessibility(self.bo, "follow requests (phone)")
        self.bo.get(f"{BASE}/notifications")
        self.assertNotIn("asked to follow you", self.bo.find_element(By.TAG_NAME, "main").text)

        # The security page, where sign-in alerts lead, names this device; and once Ana signs in on a second
        # browser too, it names every login by its device and place, this one marked.
        self.ana.get(f"{BASE}/settings/security")
        self.assertIn("on this computer", self.ana.find_element(By.ID, "this-device").text)
        self.assertIn("Chrome on Linux", self.ana.find_element(By.ID, "this-device").text)
        second = browser(width=412, height=915)
        self.addCleanup(second.quit)
        second.get(f"{BASE}/signin")
        second.find_element(By.ID, "login").send_keys(ana_name)
        second.find_element(By.ID, "password").send_keys("correct horse battery" + Keys.ENTER)
        self.wait(second, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")),
                  "the second browser did not sign in")
        self.ana.get(f"{BASE}/settings/security")
        logins = self.ana.find_elements(By.CSS_SELECTOR, "#logins .person-row")
        self.assertEqual(len(logins), 2, "the security page did not list both logins")
        for login in logins:
            self.assertIn("Chrome on Linux on this computer", login.find_element(By.CLASS_NAME, "login-device").text)
        self.assertEqual(sum("(this device)" in login.text for login in logins), 1)
        self.assertEqual(len(self.ana.find_elements(By.CSS_SELECTOR, "#logins form")), 1)
        self.shot(self.ana, "people-07-security")
        self.check_accessibility(self.ana, "security")
        self.no_script_errors(self.ana)
        self.no_script_errors(self.bo)


if __name__ == "__main__":
    unittest.main()
