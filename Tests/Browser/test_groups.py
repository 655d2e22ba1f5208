"""Groups in a real browser: Ana makes a club, makes an invitation link and copies it with Copy link; Bea, in a
second browser (phone-sized), opens the link signed out, makes an account, comes back to the link and joins;
she logs a workout with a photo to the club; Ana, with the club's page open, sees it appear without a reload.
And a parent adds a child in settings and posts for her: refused to the public, posted to the private family.
axe runs on every group page; screenshots go to .test-artifacts/.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import tempfile
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory
from drawn_photos import gradient_jpeg


class GroupsStory(BrowserStory):
    def setUp(self):
        super().setUp()
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.photo = gradient_jpeg(folder.name, "harbour.jpg", (1200, 800), "skyblue", "navy")

    def press(self, driver, element):
        """Clicks after bringing the element to the middle of the window, clear of the pinned header."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def loaded(self, driver, image):
        return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)

    def test_club_invitation_join_and_live_workout(self):
        ana, bea = self.ana, self.bo
        club = f"Harbour Runners {self.suffix}"
        self.sign_up(ana, f"ana_{self.suffix}")

        # Ana finds Groups in the nav and starts a club; a nameless try comes back marked, nothing lost.
        ana.find_element(By.CSS_SELECTOR, ".mainnav a[href='/groups']").click()
        self.wait(ana, ec.url_to_be(f"{BASE}/groups"))
        self.check_accessibility(ana, "groups")
        ana.find_element(By.ID, "new-group").click()
        self.wait(ana, ec.presence_of_element_located((By.ID, "group-form")))
        ana.find_element(By.ID, "group-description").send_keys("Sunday long runs along the harbour.")
        ana.find_element(By.CSS_SELECTOR, "input[name=access][value=request]").click()
        ana.execute_script("document.getElementById('group-name').removeAttribute('required')")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.presence_of_element_located((By.ID, "group-name-error")))
        self.assertEqual(ana.find_element(By.ID, "group-description").get_attribute("value"),
                         "Sunday long runs along the harbour.")
        self.assertTrue(ana.find_element(By.CSS_SELECTOR, "input[name=access][value=request]").is_selected())
        self.shot(ana, "groups-01-new-refused")
        self.check_accessibility(ana, "new group (refused)")
        ana.get_log("browser")  # the refused form's 422 is the console's only complaint, and expected
        ana.find_element(By.ID, "group-name").send_keys(club)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        group_url = ana.current_url.split("?")[0]
        group_path = group_url[len(BASE):]
        self.assertEqual(ana.find_element(By.ID, "group-title").text, club)
        self.shot(ana, "groups-02-club-page")
        self.check_accessibility(ana, "group page (owner)")

        # In its settings she makes an invitation link and copies it.
        ana.find_element(By.CSS_SELECTOR, f"a[href='{group_path}/settings']").click()
        self.wait(ana, ec.presence_of_element_located((By.ID, "link-form")))
        self.check_accessibility(ana, "group settings")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]"))
        field = self.wait(ana, lambda d: d.find_element(By.ID, "invitation-link"))
        link = field.get_attribute("value")
        self.assertIn("/groups/join/spg_", link)
        ana.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": BASE, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        copy = ana.find_element(By.CSS_SELECTOR, "button[data-copy='invitation-link']")
        self.assertTrue(copy.is_displayed(), "the Copy link button stayed hidden")
        self.press(ana, copy)
        self.wait(ana, lambda d: d.find_element(By.ID, "copy-status").text == "Link copied.",
                  "Copy link did not say it copied")
        copied = ana.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.clipboard.readText().then(done, (e) => done('refused: ' + e))")
        self.assertEqual(copied, link if link.startswith("http") else BASE + link)
        self.shot(ana, "groups-03-invitation-link")
        self.check_accessibility(ana, "group settings (new link)")
        self.no_script_errors(ana)

        # Bea opens the link signed out: the club's preview, and a way in that comes back here.
        bea.get(copied)
        self.wait(bea, ec.presence_of_element_located((By.ID, "signup-to-join")))
        self.assertEqual(bea.find_element(By.ID, "group-title").text, club)
        self.shot(bea, "groups-04-link-signed-out")
        self.check_accessibility(bea, "invitation link (signed out)")
        self.press(bea, bea.find_element(By.ID, "signup-to-join"))
        self.wait(bea, ec.presence_of_element_located((By.ID, "username")))
        bea.find_element(By.ID, "username").send_keys(f"bea_{self.suffix}")
        bea.find_element(By.ID, "email").send_keys(f"bea_{self.suffix}@example.com")
        bea.find_element(By.ID, "password").send_keys("correct horse battery")
        self.press(bea, bea.find_element(By.CSS_SELECTOR, "form[action='/signup'] button[type=submit]"))
        self.wait(bea, ec.presence_of_element_located((By.ID, "join-by-code")), "sign-up did not come back to the link")
        self.assertTrue(bea.find_element(By.TAG_NAME, "body").get_attribute("data-user-id"))
        self.shot(bea, "groups-05-link-signed-in")
        self.check_accessibility(bea, "invitation link (signed in)")
        self.press(bea, bea.find_element(By.CSS_SELECTOR, "#join-by-code button[type=submit]"))
        self.wait(bea, ec.url_contains("done=joined"))
        self.assertTrue(bea.find_elements(By.ID, "group-note-form"), "a member has no composer on the club page")
        self.shot(bea, "groups-06-joined")
        self.check_accessibility(bea, "group page (member, phone)")

        # Ana has the club's page open, live; the page must not reload from here on.
        ana.get(group_url)
        self.wait_live(ana)
        ana.execute_script("window.stillTheSamePage = true")

        # Bea logs a workout with a photo to the club, from the club's own link to the composer.
        self.press(bea, bea.find_element(By.ID, "group-log-workout"))
        self.wait(bea, ec.presence_of_element_located((By.ID, "workout-form")))
        audience = Select(bea.find_element(By.ID, "workout-visibility"))
        self.assertEqual(audience.first_selected_option.text, club)
        bea.find_element(By.ID, "title").send_keys("Harbour 10k")
        Select(bea.find_element(By.ID, "type")).select_by_value("cardio")
        bea.find_element(By.ID, "exercise-0").send_keys("Run")
        bea.find_element(By.ID, "exercise-0-distance").send_keys("10")
        bea.find_element(By.ID, "exercise-0-time").send_keys("52:30")
        bea.find_element(By.ID, "workout-text").send_keys("First run with the club!")
        bea.find_element(By.ID, "workout-photo").send_keys(self.photo)
        self.wait(bea, lambda d: d.find_element(By.CSS_SELECTOR, "#workout-photos .photo-item[data-media-id]"),
                  "the photo did not finish uploading and processing")
        bea.find_element(By.CSS_SELECTOR, "#workout-photos .photo-item textarea").send_keys("The harbour at dawn")
        self.shot(bea, "groups-07-compose-to-club")
        self.check_accessibility(bea, "compose to a group (phone)")
        self.press(bea, bea.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]"))
        self.wait(bea, ec.url_to_be(group_url), "posting to the club did not land on its page")
        self.no_script_errors(bea)

        # Ana sees it appear on the open page: the card with the club's mark and the photo, no reload.
        card = self.wait(ana, lambda d: next((a for a in d.find_elements(By.CSS_SELECTOR, "#feed article.post")
                                              if "Harbour 10k" in a.text), None),
                         "Bea's workout did not appear live on the club's page")
        self.assertTrue(ana.execute_script("return window.stillTheSamePage === true"), "the page reloaded")
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".group-label").text, club)
        image = card.find_element(By.CSS_SELECTOR, ".photos img")
        self.assertEqual(image.get_attribute("alt"), "The harbour at dawn")
        self.wait(ana, lambda d: self.loaded(d, image), "the photo did not load")
        self.assertEqual(ana.find_elements(By.CSS_SELECTOR, "#feed article.post")[0], card, "the new post is not on top")
        # The "Posts" heading with its order tabs, and the card's head (author, club mark) under it.
        ana.execute_script("scrollTo(0, arguments[0].getBoundingClientRect().top + scrollY - 130)", card)
        self.shot(ana, "groups-08-live-workout")
        self.check_accessibility(ana, "group page with a live post")

        # The members page: Ana, the owner, sees Bea with Make admin, Make owner, Remove and Ban.
        ana.get(f"{group_url}/members")
        row = ana.find_element(By.CSS_SELECTOR, f".member-row[data-username='bea_{self.suffix}']")
        self.assertIn("Make admin", row.text)
        self.assertIn("Ban", row.text)
        self.shot(ana, "groups-09-members")
        self.check_accessibility(ana, "group members (owner)")

        # Bea's workout is new to Ana until she opens the club: the page's script tells the server with a POST
        # (the GET alone marks nothing), so the badge in her list is gone when she comes back to it.
        ana.get(f"{BASE}/groups")
        self.assertIn("1 new", ana.find_element(By.ID, "my-groups").text)
        ana.get(group_url)
        self.assertFalse(ana.find_element(By.ID, "seen-form").is_displayed(), "the script left Mark as seen shown")

        def seen(driver):
            driver.get(f"{BASE}/groups")
            return not driver.find_elements(By.CSS_SELECTOR, "#my-groups .new-posts-badge")
        self.wait(ana, seen, "opening the club did not mark its posts seen")

        # Her Groups page lists the club among hers, and discovery finds it by name.
        ana.get(f"{BASE}/groups?q={self.suffix}")
        self.assertIn(club, ana.find_element(By.ID, "my-groups").text)
        self.assertIn(club, ana.find_element(By.ID, "found-groups").text)
        self.shot(ana, "groups-10-list")
        self.check_accessibility(ana, "groups with a search")
        self.no_script_errors(ana)


    def test_parent_posts_for_a_child_to_the_family(self):
        ana = self.ana
        self.sign_up(ana, f"ana_{self.suffix}")

        # Ana adds her daughter in settings: a name and a birth year, nothing public.
        ana.get(f"{BASE}/settings")
        self.press(ana, ana.find_element(By.ID, "children-settings-link"))
        self.wait(ana, ec.presence_of_element_located((By.ID, "add-child")))
        self.check_accessibility(ana, "children settings")
        ana.find_element(By.ID, "child-name").send_keys("Lou")
        ana.find_element(By.ID, "child-birth-year").send_keys("2018")
        self.press(ana, ana.find_element(By.ID, "add-child-button"))
        self.wait(ana, ec.url_contains("done=added"))
        self.assertIn("Lou", ana.find_element(By.ID, "children").text)
        self.shot(ana, "family-01-child-added")

        # She makes a private family circle.
        family = f"The Family {self.suffix}"
        ana.get(f"{BASE}/groups/new")
        ana.find_element(By.ID, "group-name").send_keys(family)
        ana.find_element(By.CSS_SELECTOR, "input[name=access][value=private]").click()
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        group_url = ana.current_url.split("?")[0]
        group_id = group_url.rsplit("/", 1)[1]

        # Posting for Lou to the public is refused, the box marked, the words kept.
        ana.get(f"{BASE}/compose")
        ana.find_element(By.ID, "note-text").send_keys("Lou ran her first 5k!")
        Select(ana.find_element(By.ID, "note-visibility")).select_by_value("public")
        lou_box = ana.find_element(By.CSS_SELECTOR, "#note-children input[name=child]")
        self.press(ana, lou_box)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]"))
        self.wait(ana, ec.presence_of_element_located((By.ID, "note-children-error")))
        self.assertIn("private group", ana.find_element(By.ID, "note-children-error").text)
        self.assertEqual(ana.find_element(By.ID, "note-text").get_attribute("value"), "Lou ran her first 5k!")
        self.shot(ana, "family-02-refused-public")
        ana.get_log("browser")  # the refused form's 422 is expected

        # To the family circle it goes, and the card says who it is for.
        Select(ana.find_element(By.ID, "note-visibility")).select_by_value(f"group:{group_id}")
        box = ana.find_element(By.CSS_SELECTOR, "#note-children input[name=child]")
        if not box.is_selected():
            self.press(ana, box)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]"))
        self.wait(ana, ec.url_to_be(group_url), "posting for Lou did not land on the family's page")
        card = self.wait(ana, lambda d: next((a for a in d.find_elements(By.CSS_SELECTOR, "#feed article.post")
                                              if "first 5k" in a.text), None))
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".children-label").text, "For Lou")
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".group-label").text, family)
        self.shot(ana, "family-03-posted-for-lou")
        self.check_accessibility(ana, "family page with a post for a child")
        self.no_script_errors(ana)


if __name__ == "__main__":
    unittest.main()
