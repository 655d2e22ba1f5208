"""The web app in a real browser: two people, two headless Chromium sessions, one live server.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
The test is one story, in order, because each step needs the one before (an account, a follow, a post).
It runs last: at its end it stops the server to see the page's offline indicator.
"""

import os
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory


class WebAppStory(BrowserStory):
    # --- the story -----------------------------------------------------------------------------------------

    def test_two_people_train_together(self):
        ana_name, bo_name = f"ana_{self.suffix}", f"bo_{self.suffix}"

        # A newcomer signs up and logs a workout from the builder; it shows in her Following feed.
        self.sign_up(self.ana, ana_name, screenshot="01-signup")
        self.log_workout(self.ana, "Heavy Monday", "Back Squat", [(100, 5), (105, 3)])
        self.shot(self.ana, "02-workout-builder")
        self.ana.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]").click()
        self.wait(self.ana, ec.url_contains("/feed/following"))
        first = self.ana.find_element(By.CSS_SELECTOR, "#feed article.post")
        self.assertIn("Heavy Monday", first.text)
        self.assertIn("5 × 100 kg, 3 × 105 kg", first.text)
        self.assertEqual(
            self.ana.find_element(By.CSS_SELECTOR, ".tabs a[aria-current=page]").text, "Following")

        # A second person follows her from her profile, which shows the weekly chart.
        self.sign_up(self.bo, bo_name)
        self.bo.get(f"{BASE}/u/{ana_name}")
        self.assertTrue(self.bo.find_elements(By.CSS_SELECTOR, "figure.chart .week-bars .week-fill rect"))
        self.bo.find_element(By.ID, "follow-button").click()
        self.wait(self.bo, ec.text_to_be_present_in_element((By.ID, "follow-button"), "Following"))
        self.shot(self.bo, "03-profile-phone")
        self.bo.get(f"{BASE}/feed/following")
        self.assertIn("Heavy Monday", self.bo.find_element(By.ID, "feed").text)
        self.wait_live(self.bo)

        # She posts again; his open Following feed announces it live.
        self.log_workout(self.ana, "Pull day", "Deadlift", [(140, 5)])
        self.ana.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]").click()
        self.wait(self.ana, ec.url_contains("/feed/following"))
        bar = self.wait(self.bo, ec.visibility_of_element_located((By.ID, "new-posts")),
                        "no 'new posts' bar appeared")
        self.assertEqual(bar.text, "1 new post")
        self.shot(self.bo, "04-new-post-bar-phone")
        bar.click()
        self.wait(self.bo, lambda d: "Pull day" in d.find_element(By.CSS_SELECTOR, "#feed article.post").text)

        # Her page is live too: she waits on her feed while he gives kudos.
        self.wait_live(self.ana)
        badge_before = self.badge(self.ana)
        post = self.bo.find_element(By.CSS_SELECTOR, "#feed article.post")
        post_id = post.get_attribute("data-post-id")
        post.find_element(By.CSS_SELECTOR, "button.kudos").click()
        self.assertEqual(post.find_element(By.CSS_SELECTOR, ".kudos-count").text, "1")  # at once, before the server
        self.wait(self.bo, lambda d: post.find_element(By.CSS_SELECTOR, "button.kudos").get_attribute(
            "aria-pressed") == "true")

        # Her kudos count and unread badge update without a reload.
        ana_post = f"article[data-post-id='{post_id}'] .kudos-count"
        self.wait(self.ana, ec.text_to_be_present_in_element((By.CSS_SELECTOR, ana_post), "1"),
                  "the kudos count did not update live")
        self.wait(self.ana, lambda d: self.badge(d) > badge_before, "the unread badge did not update live")
        self.shot(self.ana, "05-feed-live")

        # He comments with markup; it shows as text and runs nothing.
        hostile = "<script>window.pwned = 1</script><b>nice</b>"
        self.bo.get(f"{BASE}/posts/{post_id}")
        self.bo.find_element(By.ID, "comment-text").send_keys(hostile)
        self.bo.find_element(By.CSS_SELECTOR, "#comment-form button[type=submit]").click()
        comment = self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, ".comment .comment-text")))
        self.assertEqual(comment.text, hostile)
        self.assertIsNone(self.bo.execute_script("return window.pwned"))
        self.assertEqual(self.bo.find_elements(By.CSS_SELECTOR, ".comment b"), [])
        # ...and her feed, still open, counts the comment live.
        self.wait(self.ana, ec.text_to_be_present_in_element(
            (By.CSS_SELECTOR, f"article[data-post-id='{post_id}'] .comments-count"), "1"),
            "the comments count did not update live")
        self.ana.get(f"{BASE}/posts/{post_id}")
        self.shot(self.ana, "06-post-detail")

        # A form posted without its CSRF token is refused with 403, from a form and from script.
        self.bo.get(f"{BASE}/compose")
        status = self.bo.execute_script(
            "return fetch('/posts', {method: 'POST', body: new URLSearchParams({kind: 'note', text: 'forged'})})"
            ".then(r => r.status)")
        self.assertEqual(status, 403)
        self.bo.execute_script("document.querySelector('#note-form input[name=_csrf]').remove()")
        self.bo.find_element(By.ID, "note-text").send_keys("forged")
        self.bo.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]").click()
        self.wait(self.bo, ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "This form has expired"))
        self.bo.get(f"{BASE}/u/{ana_name}")
        self.assertNotIn("forged", self.bo.find_element(By.TAG_NAME, "main").text)

        # Search answers as he types, without submitting the form.
        self.bo.get(f"{BASE}/search")
        self.bo.find_element(By.ID, "search-q").send_keys(ana_name[:6])
        self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, f"#search-results a[href='/u/{ana_name}']")),
                  "search-as-you-type showed no results")
        self.assertIn("q=", self.bo.current_url)

        # Quiet hours are one form away.
        self.ana.get(f"{BASE}/settings")
        self.ana.find_element(By.ID, "quiet-enabled").click()
        self.ana.find_element(By.CSS_SELECTOR, "#notifications-form button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, ".notice")))
        self.assertTrue(self.ana.find_element(By.ID, "quiet-enabled").is_selected())
        self.shot(self.ana, "10-settings")

        # The rest of the pages, for the record.
        self.ana.get(f"{BASE}/notifications")
        self.assertIn(bo_name, self.ana.find_element(By.TAG_NAME, "main").text)
        self.shot(self.ana, "07-notifications")
        self.ana.get(f"{BASE}/u/{ana_name}")
        self.shot(self.ana, "08-profile")
        self.ana.get(f"{BASE}/feed/global")
        self.shot(self.ana, "09-global-feed")
        self.no_script_errors(self.ana)

        # Signing out ends the session; the feed asks to sign in again, and signing in brings her back.
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
        self.wait(self.ana, ec.url_contains("/signin"))
        self.ana.get(f"{BASE}/feed/following")
        self.assertTrue(self.ana.current_url.endswith("/signin?return_to=/feed/following"))
        self.ana.find_element(By.ID, "login").send_keys(ana_name)
        self.ana.find_element(By.ID, "password").send_keys("correct horse battery")
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/signin'] button[type=submit]").click()
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")))
        self.assertTrue(self.ana.current_url.endswith("/feed/following"), "sign-in returns to the page it came from")
        self.wait_live(self.ana)

        # A kudos the server refuses (his session ended in another tab) goes back, with a message.
        self.bo.get(f"{BASE}/posts/{post_id}")
        post = self.bo.find_element(By.CSS_SELECTOR, f"article[data-post-id='{post_id}']")
        before = post.find_element(By.CSS_SELECTOR, ".kudos-count").text
        self.bo.execute_script(
            "return fetch('/signout', {method: 'POST', headers: {'X-CSRF-Token':"
            " document.querySelector('meta[name=csrf-token]').content}}).then(r => r.status)")
        post.find_element(By.CSS_SELECTOR, "button.kudos").click()
        message = self.wait(self.bo, ec.visibility_of(post.find_element(By.CSS_SELECTOR, ".action-error")),
                            "a refused kudos showed no message")
        self.assertIn("reload", message.text)
        self.assertEqual(post.find_element(By.CSS_SELECTOR, ".kudos-count").text, before)

        # When the server goes away, her open page says it is offline.
        server = os.environ.get("SPOTTER_SERVER_PID")
        if server:
            os.kill(int(server), 15)
            self.wait(self.ana, ec.visibility_of_element_located((By.ID, "connection-status")),
                      "no offline indicator when the socket closed")
            self.shot(self.ana, "11-offline")

if __name__ == "__main__":
    unittest.main()
