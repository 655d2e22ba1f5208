"""Every page of the web app through axe-core: signed out and signed in, light and dark, desktop and phone.

The pages are the two lists below; a page added to the web app gets a line there. `{me}`, `{post}`,
`{comment}`, `{other}`, `{group}` and `{code}` (an invitation link's) are filled in from the people, post and
club the story makes. Dark mode and the phone's header with its menu open are screenshotted.
"""

import re
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory

# Pages anyone can open.
SIGNED_OUT_PAGES = [
    "/",
    "/signin",
    "/signup",
    "/forgot-password",
    "/reset-password?token=spl_not_a_real_one",
    "/search",
    "/search?q={other}",
    "/u/{other}",
    "/posts/{post}",
    "/posts/{post}/kudos",
    "/tags/legday",
    "/u/{other}/followers",
    "/u/{other}/following",
    "/groups",
    "/groups/{group}",
    "/groups/{group}/members",
    "/groups/join/{code}",
    "/no/such/page",
]

# Pages for a signed-in person (Otto wrote the post and its comment: edit and delete are his pages, and Ally's
# 404 or 403).
SIGNED_IN_PAGES = [
    "/",
    "/feed/following",
    "/feed/featured",
    "/feed/global",
    "/compose",
    "/posts/{post}",
    "/u/{me}",
    "/u/{other}",
    "/notifications",
    "/search?q={other}",
    "/posts/{post}/kudos",
    "/posts/{post}/edit",
    "/posts/{post}/delete",
    "/posts/{post}/comments/{comment}/edit",
    "/tags/legday",
    "/u/{other}/followers",
    "/u/{me}/following",
    "/welcome",
    "/follow-requests",
    "/settings",
    "/settings/people",
    "/settings/security",
    "/confirm-email?token=spl_not_a_real_one",
    "/groups",
    "/groups?q=bench",
    "/groups/new",
    "/groups/{group}",
    "/groups/{group}/members",
    "/groups/{group}/settings",
    "/groups/{group}/delete",
    "/groups/join/{code}",
    "/no/such/page",
]

SCHEMES = ("light", "dark")


class AccessibilityStory(BrowserStory):
    def visit_all(self, driver, pages, names, who):
        for scheme in SCHEMES:
            self.set_color_scheme(driver, scheme)
            for page in pages:
                path = page.format(**names)
                driver.get(f"{BASE}{path}")
                self.wait(driver, ec.presence_of_element_located((By.TAG_NAME, "main")), f"{path} has no main")
                with self.subTest(page=path, scheme=scheme, who=who):
                    self.check_accessibility(driver, f"{path} ({scheme}, {who})")

    def test_every_page(self):
        me, other = f"ally_{self.suffix}", f"otto_{self.suffix}"
        # Otto posts a workout with a comment; Ally follows him, so her pages have something on them.
        self.sign_up(self.bo, other)
        self.log_workout(self.bo, "Bench day", "Bench Press", [(80, 5)])
        self.bo.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, "#feed article.post")))
        link = self.bo.find_element(By.CSS_SELECTOR, "#feed article.post a[href^='/posts/']").get_attribute("href")
        post = re.search(r"/posts/([0-9a-f-]+)", link).group(1)
        self.bo.get(f"{BASE}/posts/{post}")
        self.bo.find_element(By.ID, "comment-text").send_keys("Felt strong")
        self.bo.find_element(By.CSS_SELECTOR, "#comment-form button[type=submit]").click()
        comment = self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, "#comment-list li.comment")))
        comment = comment.get_attribute("data-comment-id")
        # Otto's open club, with a post to it and an invitation link (Ally is neither member nor admin of it).
        self.bo.get(f"{BASE}/groups/new")
        self.bo.find_element(By.ID, "group-name").send_keys(f"Bench Club {self.suffix}")
        self.bo.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.ID, "group-note-form")))
        group = re.search(r"/groups/([0-9a-f-]+)", self.bo.current_url).group(1)
        self.bo.find_element(By.ID, "group-note-text").send_keys("Bench night is Thursday")
        self.bo.find_element(By.CSS_SELECTOR, "#group-note-form button[type=submit]").click()
        self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, "#feed article.post")))
        self.bo.get(f"{BASE}/groups/{group}/settings")
        self.bo.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]").click()
        link = self.wait(self.bo, ec.presence_of_element_located((By.ID, "invitation-link"))).get_attribute("value")
        code = link.rsplit("/", 1)[1]
        self.sign_up(self.ana, me)
        self.ana.get(f"{BASE}/u/{other}")
        self.ana.find_element(By.ID, "follow-button").click()
        self.wait(self.ana, ec.text_to_be_present_in_element((By.ID, "follow-button"), "Following"))
        names = {"me": me, "other": other, "post": post, "comment": comment, "group": group, "code": code}

        # Signed in, at desktop size (Ally) and on a phone (Otto).
        self.visit_all(self.ana, SIGNED_IN_PAGES, names, "signed in, desktop")
        self.visit_all(self.bo, SIGNED_IN_PAGES, names, "signed in, phone")

        # Screenshots: dark mode at both sizes, and the phone's header with its menu open.
        self.set_color_scheme(self.ana, "dark")
        self.ana.get(f"{BASE}/posts/{post}")
        self.shot(self.ana, "a11y-dark-post-desktop")
        self.ana.get(f"{BASE}/u/{other}")
        self.shot(self.ana, "a11y-dark-profile-desktop")
        self.ana.get(f"{BASE}/settings")
        self.shot(self.ana, "a11y-dark-settings-desktop")
        self.set_color_scheme(self.bo, "dark")
        self.bo.get(f"{BASE}/feed/global")
        self.shot(self.bo, "a11y-dark-feed-phone")
        self.bo.find_element(By.CSS_SELECTOR, "details.menu summary").click()
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, ".menu-panel").is_displayed())
        self.check_accessibility(self.bo, "phone menu open (dark)")
        self.shot(self.bo, "a11y-dark-phone-menu-open")
        self.set_color_scheme(self.bo, "light")
        self.bo.get(f"{BASE}/settings")
        self.bo.find_element(By.CSS_SELECTOR, "details.menu summary").click()
        self.wait(self.bo, lambda d: d.find_element(By.CSS_SELECTOR, ".menu-panel").is_displayed())
        self.check_accessibility(self.bo, "phone menu open (light)")
        self.shot(self.bo, "a11y-light-phone-menu-open")

        # Signed out, at both sizes.
        for driver in (self.ana, self.bo):
            driver.delete_all_cookies()
        self.visit_all(self.ana, SIGNED_OUT_PAGES, names, "signed out, desktop")
        self.visit_all(self.bo, SIGNED_OUT_PAGES, names, "signed out, phone")


if __name__ == "__main__":
    unittest.main()
