"""Posts and comments in a real browser: edit a post, comments appearing live in another browser, a reply, a
comment edited by its author (live in the other browser), a comment deleted after confirming, who gave kudos,
a tag's page, and the 404 page; axe-core on each page.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory


class PostsStory(BrowserStory):
    def post_note(self, driver, text):
        driver.get(f"{BASE}/compose")
        driver.find_element(By.ID, "note-text").send_keys(text)
        driver.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]").click()
        self.wait(driver, ec.url_contains("/feed/following"))
        return driver.find_element(By.CSS_SELECTOR, "#feed article.post").get_attribute("data-post-id")

    def test_a_post_lives_edited_commented_replied(self):
        ana_name, bo_name = f"ana_{self.suffix}", f"bo_{self.suffix}"
        self.sign_up(self.ana, ana_name)
        self.sign_up(self.bo, bo_name)

        # Ana posts a note with a tag and a mention; on her own post there is no kudos button, only the count.
        post_id = self.post_note(self.ana, f"Front squats today #legday with @{bo_name}")
        self.ana.get(f"{BASE}/posts/{post_id}")
        card = self.ana.find_element(By.CSS_SELECTOR, "#post-page article.post")
        self.assertEqual(card.find_elements(By.CSS_SELECTOR, "button.kudos"), [])
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".post-text a[href='/tags/legday']").text, "#legday")
        self.assertTrue(card.find_elements(By.CSS_SELECTOR, f".post-text a[href='/u/{bo_name}']"))
        self.check_accessibility(self.ana, "post page (own)")

        # She edits it: new text, followers only. The post says "edited" and who can see it.
        card.find_element(By.LINK_TEXT, "Edit").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "edit-form")))
        self.check_accessibility(self.ana, "edit post")
        text = self.ana.find_element(By.ID, "edit-text")
        text.clear()
        text.send_keys(f"Front squats, 5x5 #legday with @{bo_name}")
        Select(self.ana.find_element(By.ID, "edit-visibility")).select_by_value("followers")
        self.shot(self.ana, "posts-01-edit")
        self.ana.find_element(By.CSS_SELECTOR, "#edit-form button[type=submit]").click()
        self.wait(self.ana, ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#post-page .post-text"), "5x5"))
        card = self.ana.find_element(By.CSS_SELECTOR, "#post-page article.post")
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".edited").text, "edited")
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".visibility-label").text, "Followers")

        # Bo follows her, opens the post and gives kudos; she keeps the post open.
        self.bo.get(f"{BASE}/u/{ana_name}")
        self.bo.find_element(By.ID, "follow-button").click()
        self.wait(self.bo, ec.text_to_be_present_in_element((By.ID, "follow-button"), "Following"))
        self.bo.get(f"{BASE}/posts/{post_id}")
        self.bo.find_element(By.CSS_SELECTOR, "button.kudos").click()
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, "button.kudos").get_attribute("aria-pressed")
                  == "true")
        self.ana.get(f"{BASE}/posts/{post_id}")
        self.assertIn("No comments yet", self.ana.find_element(By.ID, "comments").text)
        self.wait_live(self.ana)

        # His comment appears in her open page without a reload, and "No comments yet" goes.
        self.bo.get(f"{BASE}/posts/{post_id}")
        self.bo.find_element(By.ID, "comment-text").send_keys("Strong work!")
        self.bo.find_element(By.CSS_SELECTOR, "#comment-form button[type=submit]").click()
        self.wait(self.ana, ec.text_to_be_present_in_element((By.ID, "comment-list"), "Strong work!"),
                  "the comment did not appear live")
        self.assertNotIn("No comments yet", self.ana.find_element(By.ID, "comments").text)
        self.assertEqual(self.ana.find_element(By.CSS_SELECTOR, "#post-page .comments-count").text, "1 comment")
        self.shot(self.ana, "posts-02-live-comment")

        # She replies to it; the reply sits under his comment.
        comment = self.ana.find_element(By.CSS_SELECTOR, "#comment-list li.comment")
        comment.find_element(By.CSS_SELECTOR, ".reply-box summary").click()
        comment.find_element(By.CSS_SELECTOR, ".reply-form textarea").send_keys("Thanks, spotter!")
        comment.find_element(By.CSS_SELECTOR, ".reply-form button[type=submit]").click()
        reply = self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, "#comment-list .replies .comment")))
        self.assertIn("Thanks, spotter!", reply.text)
        self.shot(self.ana, "posts-03-reply")
        self.check_accessibility(self.ana, "post page with comments and a reply")

        # On his phone the reply arrives live too.
        self.wait(self.bo, ec.text_to_be_present_in_element((By.ID, "comment-list"), "Thanks, spotter!"),
                  "the reply did not appear live")
        self.shot(self.bo, "posts-04-reply-phone")
        self.check_accessibility(self.bo, "post page on a phone")

        # She edits the post while his page is open: his copy shows the new text and "edited" without a reload.
        self.ana.get(f"{BASE}/posts/{post_id}/edit")
        text = self.ana.find_element(By.ID, "edit-text")
        text.clear()
        text.send_keys(f"Front squats, 5x5 and a PR #legday with @{bo_name}")
        self.ana.find_element(By.CSS_SELECTOR, "#edit-form button[type=submit]").click()
        self.wait(self.bo, ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#post-page .post-text"), "a PR"),
                  "the edit did not show live")
        self.assertEqual(self.bo.find_element(By.CSS_SELECTOR, "#post-page .edited").text, "edited")
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "comment-list")))

        # He fixes his comment while her page is open: both show the new words and "edited", hers without a reload.
        self.wait_live(self.ana)
        self.bo.find_element(By.CSS_SELECTOR, "#comment-list > ol > li.comment > .comment-head .comment-edit").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "comment-edit-form")))
        self.check_accessibility(self.bo, "edit comment")
        text = self.bo.find_element(By.ID, "comment-edit-text")
        text.clear()
        text.send_keys("Strong work! Deep too.")
        self.shot(self.bo, "posts-04b-edit-comment")
        self.bo.find_element(By.CSS_SELECTOR, "#comment-edit-form button[type=submit]").click()
        self.wait(self.bo, ec.text_to_be_present_in_element((By.ID, "comment-list"), "Deep too."))
        self.assertIn("#comment-", self.bo.current_url)
        self.wait(self.ana, ec.text_to_be_present_in_element((By.ID, "comment-list"), "Deep too."),
                  "the comment's edit did not show live")
        edited = self.ana.find_element(By.CSS_SELECTOR, "#comment-list > ol > li.comment > .comment-head .edited")
        self.assertEqual(edited.text, "edited")

        # She deletes his comment from her post, after confirming.
        self.ana.find_element(By.CSS_SELECTOR, "#comment-list > ol > li.comment > .comment-head .comment-delete").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "confirm-delete")))
        self.assertIn("Strong work!", self.ana.find_element(By.CSS_SELECTOR, ".quoted").text)
        self.check_accessibility(self.ana, "confirm delete")
        self.shot(self.ana, "posts-05-confirm-delete")
        self.ana.find_element(By.CSS_SELECTOR, "#confirm-delete button[type=submit]").click()
        self.wait(self.ana, lambda d: "/posts/" in d.current_url and "delete" not in d.current_url)
        self.assertNotIn("Strong work!", self.ana.find_element(By.ID, "comment-list").text)
        self.wait(self.bo, lambda d: "Strong work!" not in d.find_element(By.ID, "comment-list").text,
                  "the deleted comment did not disappear live")

        # The kudos count leads to who gave them.
        self.ana.find_element(By.CSS_SELECTOR, "#post-page .kudos-link").click()
        self.wait(self.ana, ec.presence_of_element_located((By.ID, "kudos-givers")))
        self.assertTrue(self.ana.find_elements(By.CSS_SELECTOR, f"#kudos-givers a[href='/u/{bo_name}']"))
        self.shot(self.ana, "posts-06-kudos")
        self.check_accessibility(self.ana, "kudos list")

        # A tag leads to its feed page.
        self.ana.get(f"{BASE}/posts/{post_id}")
        self.ana.find_element(By.CSS_SELECTOR, ".post-text a[href='/tags/legday']").click()
        self.wait(self.ana, ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "#legday"))
        self.check_accessibility(self.ana, "tag page")

        # A post address that is no post is the 404 page.
        self.bo.get(f"{BASE}/posts/not-a-uuid")
        self.assertEqual(self.bo.find_element(By.TAG_NAME, "h1").text, "Not found")
        self.shot(self.bo, "posts-07-not-found-phone")
        self.check_accessibility(self.bo, "404 page")

        self.no_script_errors(self.ana)

        # And she deletes the post itself; its address is then the 404 page.
        self.ana.get(f"{BASE}/posts/{post_id}/delete")
        self.ana.find_element(By.CSS_SELECTOR, "#confirm-delete button[type=submit]").click()
        self.wait(self.ana, ec.url_contains("/feed/following"))
        self.ana.get(f"{BASE}/posts/{post_id}")
        self.assertEqual(self.ana.find_element(By.TAG_NAME, "h1").text, "Not found")


if __name__ == "__main__":
    unittest.main()
