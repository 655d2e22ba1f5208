"""Nostr in a real browser, through a NIP-07 extension: link a key in settings, sign out, sign in with Nostr.

No extension runs in headless Chromium, so the story puts one in: a shim, added before any page script runs
(CDP `Page.addScriptToEvaluateOnNewDocument`), that gives the page `window.nostr` as NIP-07 describes it. Its
`signEvent` hands the unsigned event to this test, which signs it with rust-nostr (`nostr_sdk`, an implementation
nobody here wrote) and hands the signed event back. The page, the server and the signatures are all real: only the
extension's window is played by the test.

Run through scripts/browser-test.
"""

import json
import unittest

import nostr_sdk
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory, browser

# The NIP-07 window a browser extension would give the page. `signEvent` waits for the test to sign.
SHIM = """
(function () {
  var pending = [], waiting = {}, next = 0;
  window.__nostrPending = function () { var taken = pending; pending = []; return taken; };
  window.__nostrAnswer = function (id, json) { waiting[id](JSON.parse(json)); delete waiting[id]; };
  window.nostr = {
    getPublicKey: function () { return Promise.resolve("%s"); },
    signEvent: function (event) {
      return new Promise(function (resolve) { var id = ++next; waiting[id] = resolve; pending.push({ id: id, event: event }); });
    },
  };
})();
"""


class NostrStory(BrowserStory):
    def setUp(self):
        # One person in one browser is this story; the shared setUp's second browser would only idle.
        self.suffix = __import__("uuid").uuid4().hex[:6]
        self.keys = nostr_sdk.Keys.generate()
        self.pubkey = self.keys.public_key().to_hex()
        self.ana = browser()
        self.addCleanup(self.ana.quit)
        self.ana.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIM % self.pubkey})
        self.signed = []

    def sign_requests(self, driver):
        """Signs what the page asked the extension to sign since the last look, with rust-nostr."""
        for request in driver.execute_script("return window.__nostrPending ? window.__nostrPending() : []") or []:
            unsigned = dict(request["event"], pubkey=self.pubkey)
            event = nostr_sdk.UnsignedEvent.from_json(json.dumps(unsigned)).sign(self.keys)
            self.assertTrue(event.verify())
            self.signed.append(json.loads(event.as_json()))
            driver.execute_script("window.__nostrAnswer(arguments[0], arguments[1])", request["id"], event.as_json())

    def wait_signing(self, driver, condition, message):
        """Waits for `condition`, signing what the page asks for meanwhile, as the extension's window would."""
        def signed_and(d):
            self.sign_requests(d)
            return condition(d)
        return self.wait(driver, signed_and, message)

    def test_link_a_key_then_sign_in_with_it(self):
        name = f"nostr_{self.suffix}"
        npub = self.keys.public_key().to_bech32()

        # Ana signs up with a password, and links the key her extension holds in settings.
        self.sign_up(self.ana, name)
        self.ana.get(f"{BASE}/settings")
        self.wait(self.ana, ec.visibility_of_element_located((By.ID, "nostr-link-button")),
                  "with window.nostr there, settings offer to link a key")
        self.assertFalse(self.ana.find_element(By.ID, "nostr-no-extension").is_displayed())
        self.ana.find_element(By.ID, "nostr-link-button").click()
        self.wait_signing(self.ana, lambda d: "saved=nostr-linked" in d.current_url, "linking the key did not finish")
        # The extension signed a kind 22242 event naming the server's relay and a challenge.
        self.assertEqual([event["kind"] for event in self.signed], [22242])
        tags = dict((tag[0], tag[1]) for tag in self.signed[0]["tags"])
        self.assertEqual(tags["relay"], BASE.replace("http://", "ws://") + "/relay")
        self.assertTrue(tags["challenge"])
        # The key is listed as rust-nostr writes its npub.
        listed = [code.text for code in self.ana.find_elements(By.CSS_SELECTOR, "#nostr-key-list .npub")]
        self.assertEqual(listed, [npub])
        self.ana.find_element(By.ID, "nostr-title").location_once_scrolled_into_view
        self.shot(self.ana, "nostr-01-settings-linked")
        self.check_accessibility(self.ana, "settings with a Nostr key")

        # She signs out; the sign-in page offers Nostr, since the extension is there.
        self.ana.find_element(By.CSS_SELECTOR, "form[action='/signout'].wide-only button").click()
        self.wait(self.ana, lambda d: d.current_url.startswith(f"{BASE}/signin"), "signing out did not end at sign-in")
        self.wait(self.ana, ec.visibility_of_element_located((By.ID, "nostr-signin-button")),
                  "with window.nostr there, the sign-in page offers Sign in with Nostr")
        self.shot(self.ana, "nostr-02-signin")

        # Sign in with Nostr: the extension signs a NIP-98 event for the web sign-in, and she lands on her feed.
        self.ana.find_element(By.ID, "nostr-signin-button").click()
        self.wait_signing(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")),
                          "signing in with Nostr did not sign in")
        self.assertEqual(self.ana.current_url, f"{BASE}/")
        self.assertEqual([event["kind"] for event in self.signed], [22242, 27235])
        tags = dict((tag[0], tag[1]) for tag in self.signed[1]["tags"])
        self.assertEqual((tags["u"], tags["method"]), (f"{BASE}/signin/nostr", "POST"))
        self.assertIn(f"/u/{name}", self.ana.find_element(By.CSS_SELECTOR, "a.me-link").get_attribute("href"))
        self.shot(self.ana, "nostr-03-feed-signed-in")
        self.no_script_errors(self.ana)

        # The same signed event can't sign in again (NIP-98 events are good once): the server says why.
        replay = self.ana.execute_async_script(
            """
            var done = arguments[arguments.length - 1];
            var header = "Nostr " + btoa(arguments[0]);
            var csrf = document.querySelector('meta[name="csrf-token"]').content;
            fetch("/signin/nostr", { method: "POST", headers: { "Authorization": header, "X-CSRF-Token": csrf } })
              .then(function (r) { return r.json().then(function (b) { done([r.status, b.error || ""]); }); });
            """, json.dumps(self.signed[1], separators=(",", ":")))
        self.assertEqual(replay[0], 401)
        self.assertIn("used already", replay[1])


if __name__ == "__main__":
    unittest.main()
