"""The layout holds on a phone: the header fits at 412 px (signed out, and signed in with an unread badge) on
every page, no page scrolls sideways, and the children settings page reads as cards (no stray bullet, the
avatar beside the name, text fields drawn as fields, buttons apart). Measured in the page, not guessed from a
screenshot; screenshots go to .test-artifacts/ for a person to look at too.
"""

import json
import re
import unittest
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory

SIGNED_OUT = ["/", "/signin", "/signup", "/groups", "/search", "/u/{other}", "/posts/{post}", "/tags/legday"]
# The inbox last: opening it marks the notifications seen, and the other pages are measured with the badge.
SIGNED_IN = ["/", "/compose", "/groups", "/search", "/settings", "/settings/children", "/u/{me}", "/posts/{post}",
             "/posts/{mine}/edit", "/notifications"]

# What overflows: the page wider than the window, and each header item whose box leaves the window or whose
# text is wider than its box (cut: "Jo" for "Join").
OVERFLOW = """
const width = document.documentElement.clientWidth;
const problems = [];
if (document.documentElement.scrollWidth > width) {
  problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
}
for (const item of document.querySelectorAll('.topbar a, .topbar summary, .topbar button')) {
  const box = item.getBoundingClientRect();
  if (box.width === 0 || getComputedStyle(item).visibility === 'hidden') continue;
  const name = item.textContent.trim().replace(/\\s+/g, ' ');
  if (box.left < 0 || box.right > width) problems.push(`"${name}" reaches ${Math.round(box.right)} px`);
  // Cut by an ancestor that hides its overflow (the header's row), or inside its own box.
  for (let box2 = item.parentElement; box2 && box2 !== document.body; box2 = box2.parentElement) {
    const edge = box2.getBoundingClientRect();
    if (getComputedStyle(box2).overflowX !== 'visible' && (box.right > edge.right + 1 || box.left < edge.left - 1)) {
      problems.push(`"${name}" is cut by its ${box2.className || box2.tagName}`);
      break;
    }
  }
  if (getComputedStyle(item).display !== 'inline' && item.scrollWidth > item.clientWidth + 1) {
    problems.push(`"${name}" is cut`);
  }
}
return problems;
"""

# A text field drawn as one: a visible border and a height a thumb can hit.
FIELDS = """
return [...document.querySelectorAll(arguments[0])].filter(f => f.offsetParent !== null).map(f => {
  const style = getComputedStyle(f);
  return {id: f.id, height: f.getBoundingClientRect().height, border: parseFloat(style.borderTopWidth)};
});
"""

# Buttons of one card that share a line must not touch.
BUTTON_GAPS = """
const gaps = [];
for (const card of document.querySelectorAll(arguments[0])) {
  const boxes = [...card.querySelectorAll('button:not([type=hidden])')].filter(b => b.offsetParent !== null)
    .map(b => [b.textContent.trim(), b.getBoundingClientRect()]);
  for (const [a, one] of boxes) for (const [b, other] of boxes) {
    if (a === b || one.left >= other.left) continue;
    const sameLine = one.top < other.bottom && other.top < one.bottom;
    if (sameLine) gaps.push([a, b, other.left - one.right]);
  }
}
return gaps;
"""


def api(method, path, body=None, token=None):
    request = urllib.request.Request(f"{BASE}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


class LayoutStory(BrowserStory):
    maxDiff = None

    def visit(self, driver, pages, names, who):
        for page in pages:
            path = page.format(**names)
            driver.get(f"{BASE}{path}")
            self.wait(driver, ec.presence_of_element_located((By.TAG_NAME, "main")), f"{path} has no main")
            with self.subTest(page=path, who=who):
                self.assertEqual(driver.execute_script(OVERFLOW), [], f"{path} overflows ({who})")

    def test_phone_header_and_children_page(self):
        me, other = f"lea_{self.suffix}", f"omar_{self.suffix}"
        omar = api("POST", "/api/v1/auth/signup",
                   {"email": f"{other}@example.com", "username": other, "password": "correct horse battery"})
        post = api("POST", "/api/v1/posts", {"kind": "note", "text": "Hill repeats #legday"},
                   omar["access_token"])["id"]

        # Signed out on a phone: every header link whole on every page.
        names = {"me": me, "other": other, "post": post}
        self.visit(self.bo, SIGNED_OUT, names, "signed out, phone")
        self.bo.get(f"{BASE}/")
        self.shot(self.bo, "layout-01-phone-signed-out")

        # Signed in with an unread badge (Omar follows Lea), on a phone, and with a post of her own to edit.
        self.sign_up(self.bo, me)
        api("POST", f"/api/v1/users/{me}/follow", token=omar["access_token"])
        self.bo.get(f"{BASE}/compose")
        self.bo.find_element(By.ID, "note-text").send_keys("First run of the week")
        self.bo.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]").click()
        link = self.wait(self.bo, ec.presence_of_element_located(
            (By.CSS_SELECTOR, "#feed article.post a[href^='/posts/']"))).get_attribute("href")
        names["mine"] = re.search(r"/posts/([0-9a-f-]+)", link).group(1)
        self.bo.get(f"{BASE}/")
        self.wait(self.bo, lambda d: self.badge(d) > 0, "the unread badge did not show")
        self.shot(self.bo, "layout-02-phone-signed-in-badge")
        self.visit(self.bo, SIGNED_IN, names, "signed in, phone")

        # The post edit page's title field is a field.
        self.bo.get(f"{BASE}/posts/{names['mine']}/edit")
        for field in self.bo.execute_script(FIELDS, "#edit-form input:not([type=hidden]):not([type=checkbox])"):
            with self.subTest(field=field["id"]):
                self.assertGreaterEqual(field["height"], 30, f"{field['id']} is a thin bar")
                self.assertGreater(field["border"], 0, f"{field['id']} has no border")

        # The children page, with a child, at both sizes.
        for driver, size in ((self.bo, "phone"), (self.ana, "desktop")):
            if driver is self.ana:
                driver.get(f"{BASE}/signin")
                driver.find_element(By.ID, "login").send_keys(me)
                driver.find_element(By.ID, "password").send_keys("correct horse battery")
                driver.find_element(By.CSS_SELECTOR, "form[action='/signin'] button[type=submit]").click()
                self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")))
            else:
                driver.get(f"{BASE}/settings/children")
                driver.find_element(By.ID, "child-name").send_keys("Maya")
                driver.find_element(By.ID, "child-birth-year").send_keys("2018")
                driver.find_element(By.ID, "add-child-button").click()
                self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#children .child")))
            driver.get(f"{BASE}/settings/children")
            self.shot(driver, f"layout-03-children-{size}")
            child = driver.find_element(By.CSS_SELECTOR, "#children .child")
            with self.subTest(size=size, check="bullet"):
                marker = driver.execute_script("return getComputedStyle(arguments[0]).listStyleType", child)
                self.assertEqual(marker, "none", "a child's card has a list bullet")
            with self.subTest(size=size, check="avatar beside the name"):
                avatar = child.find_element(By.CSS_SELECTOR, ".avatar").rect
                name = child.find_element(By.CSS_SELECTOR, ".child-name").rect
                self.assertLess(avatar["x"] + avatar["width"], name["x"] + 1, "the avatar is not left of the name")
                self.assertLess(avatar["y"], name["y"] + name["height"], "the avatar is below the name")
            for field in driver.execute_script(FIELDS, "main input[type=text], main input:not([type])"):
                with self.subTest(size=size, field=field["id"]):
                    self.assertGreaterEqual(field["height"], 30, f"{field['id']} is a thin bar")
                    self.assertGreater(field["border"], 0, f"{field['id']} has no border")
            for first, second, gap in driver.execute_script(BUTTON_GAPS, "#children .child"):
                with self.subTest(size=size, buttons=f"{first} | {second}"):
                    self.assertGreaterEqual(gap, 4, f"“{first}” and “{second}” run together")
            self.check_accessibility(driver, f"children page ({size})")


if __name__ == "__main__":
    unittest.main()
