"""Web Push from the web app, in a real browser: Settings → Notifications, "This browser".

Ana, on a desktop, subscribes: a browser that blocks notifications is told so; once they are allowed, the service
worker registers at /sw.js for the whole site, and since this machine's Chromium can't reach its push service
(Google's, out of reach here), the page says that in its status region instead of waiting for ever. A push is then
handed to her worker as her browser would hand it one: DevTools' ServiceWorker.deliverPushMessage, with the JSON
the server encrypts and sends (WebPushChannel: title, body, badge, tag, url). It shows as a notification on her
desktop (a notification server of the story's own on D-Bus, which Chromium on Linux shows notifications through);
a newer batch with the same tag replaces it; clicking it, as someone at the desktop would, takes her open Spotter
tab to the post. With no Spotter tab open, a click opens a window, and a route that isn't a path on this site
opens the inbox instead.

Bo, on a phone, goes through subscribing and unsubscribing as a browser whose push service answers: the story
stands in for the browser's PushManager (its subscribe and getSubscription; nothing of the page's own script),
and the server's database shows the subscription arrive and go. With his pushes off, the page says a
subscription gets nothing; and signing out unsubscribes the browser, so the next person at it gets none of his.

The server's own half, encrypting for the browser and signing with VAPID, is tested against a local push service
in Tests/SpotterServerTests/Delivery. The story runs a server of its own with a VAPID key, so the other stories
keep a server with no push set up.
"""

import base64
import json
import os
import socket
import sqlite3
import subprocess
import tempfile
import time
import unittest
import urllib.request

from cryptography.hazmat.primitives.asymmetric import ec as curves
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import BrowserStory, browser
from desktop_notifications import DesktopNotifications
from devtools import DevTools

UNREACHABLE = "Your browser's push service can't be reached"
DENIED = "Your browser blocks notifications from Spotter"
SUBSCRIBED = "This browser is subscribed: your notifications come here too."
NOT_SUBSCRIBED = "This browser isn't subscribed."
PUSHES_OFF = "pushes are off: tick “Push to my devices” above and save."
UNSUBSCRIBED = "This browser is unsubscribed: notifications no longer come here."

# The browser's PushManager, as a browser whose push service answers would have it (Bo's): a subscription kept
# in localStorage, with the endpoint and keys a push service would give. It checks the key the page subscribes
# with is the server's, an uncompressed P-256 point.
PUSH_SERVICE_STAND_IN = """
(() => {
  const slot = "story-push-subscription";
  const bytes = (n, first) => {
    const b = crypto.getRandomValues(new Uint8Array(n));
    if (first) b[0] = first;
    return b;
  };
  const b64url = (b) => btoa(String.fromCharCode(...b)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const made = (json) => ({
    endpoint: json.endpoint, expirationTime: null, options: { userVisibleOnly: true },
    toJSON: () => json,
    unsubscribe: async () => { localStorage.removeItem(slot); return true; },
  });
  PushManager.prototype.getSubscription = async function () {
    const json = JSON.parse(localStorage.getItem(slot) || "null");
    return json && made(json);
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    if (!options.userVisibleOnly || key.length !== 65 || key[0] !== 4) {
      throw new DOMException("not the server's key", "InvalidAccessError");
    }
    localStorage.setItem("story-push-key", b64url(key));
    const json = { endpoint: "https://push.example/story/" + b64url(bytes(12)), expirationTime: null,
                   keys: { p256dh: b64url(bytes(65, 4)), auth: b64url(bytes(16)) } };
    localStorage.setItem(slot, JSON.stringify(json));
    return made(json);
  };
})();
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def base64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_keys():
    """A new VAPID key pair: the private key as SPOTTER_VAPID_PRIVATE_KEY takes it (the P-256 scalar, 32 bytes),
    and the public key as browsers subscribe with it (the uncompressed point, 65 bytes), both base64url."""
    key = curves.generate_private_key(curves.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64url(key.private_numbers().private_value.to_bytes(32, "big")), base64url(public)


class PushServer:
    """`spotter serve` with Web Push set up, on a port and a data directory of its own, with the executable the
    stories' server runs."""

    def __init__(self):
        # The running server's own file, even when a build has replaced the one at its path since it started.
        binary = os.environ.get("SPOTTER_BINARY") or f"/proc/{os.environ['SPOTTER_SERVER_PID']}/exe"
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.data = tempfile.mkdtemp(prefix="spotter-web-push.")
        self.log = open(os.path.join(self.data, "server.log"), "w")
        private_key, self.vapid_public_key = vapid_keys()
        environment = {name: value for name, value in os.environ.items() if not name.startswith("SPOTTER_")}
        environment.update(SPOTTER_BCRYPT_COST="4", SPOTTER_PUBLIC_URL=self.base, SPOTTER_VAPID_PRIVATE_KEY=private_key,
                           SPOTTER_VAPID_SUBJECT="mailto:stories@example.com")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", self.data],
            env=environment, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the Web Push story's server did not start: {open(self.log.name).read()[-2000:]}")

    def web_push_endpoints(self):
        """The endpoints of every browser subscription the server holds."""
        connection = sqlite3.connect(f"file:{os.path.join(self.data, 'spotter.sqlite')}?mode=ro", uri=True)
        try:
            return [row[0] for row in connection.execute("SELECT endpoint FROM web_push_subscriptions")]
        finally:
            connection.close()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


class WebPushStory(BrowserStory):
    @classmethod
    def setUpClass(cls):
        cls.server = PushServer()
        cls.addClassCleanup(cls.server.stop)
        cls.base = cls.server.base
        cls.desktop = DesktopNotifications()
        cls.addClassCleanup(cls.desktop.stop)

    def setUp(self):
        # BrowserStory's two people, in browsers that show notifications on the story's desktop.
        self.suffix = os.urandom(3).hex()
        self.ana = browser(env=self.desktop.environment)
        self.addCleanup(self.ana.quit)
        self.bo = browser(width=412, height=915, env=self.desktop.environment)
        self.addCleanup(self.bo.quit)

    # --- helpers -------------------------------------------------------------------------------------------

    def status(self, driver):
        return driver.find_element(By.ID, "web-push-status").text

    def wait_status(self, driver, text, timeout=10, message=""):
        WebDriverWait(driver, timeout).until(lambda d: text in self.status(d),
                                             message or f"the status never said {text!r}")

    def press(self, driver, button_id):
        """Clicks a button of the section, brought out from under the page's sticky header first."""
        button = driver.find_element(By.ID, button_id)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()

    def set_notifications(self, driver, setting):
        driver.execute_cdp_cmd("Browser.setPermission", {
            "permission": {"name": "notifications"}, "setting": setting, "origin": self.base})

    def page_notifications(self, driver):
        """The notifications the worker shows now, as the page's registration lists them."""
        return driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.getRegistration("/").then((r) => r.getNotifications()).then(
              (list) => done(list.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))),
              (e) => done({error: String(e)}));""")

    def show_settings(self, driver, name):
        driver.get(f"{self.base}/settings")
        section = self.wait(driver, ec.visibility_of_element_located((By.ID, "web-push")),
                            "the browser's push control did not show")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", section)
        self.shot(driver, name)
        return section

    def push(self, tools, page, registration, payload):
        """Hands the worker a push, as the browser does once it has decrypted what the server sent."""
        tools.command("ServiceWorker.deliverPushMessage", {
            "origin": self.base, "registrationId": registration, "data": json.dumps(payload)}, session=page)

    # --- the story -----------------------------------------------------------------------------------------

    def test_this_browser_subscribes_shows_pushes_and_a_click_opens_the_route(self):
        ana = self.ana
        self.sign_up(ana, f"ana_{self.suffix}")
        self.log_workout(ana, "Heavy Monday", "Back Squat", [(100, 5)])
        ana.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]").click()
        self.wait(ana, ec.url_contains("/feed/following"))
        post_id = ana.find_element(By.CSS_SELECTOR, "#feed article.post").get_attribute("data-post-id")

        # Settings show "This browser", not yet subscribed, its status in a live region.
        section = self.show_settings(ana, "web-push-01-desktop")
        self.wait_status(ana, NOT_SUBSCRIBED)
        status = ana.find_element(By.ID, "web-push-status")
        self.assertEqual(status.get_attribute("role"), "status")
        self.assertEqual(status.get_attribute("aria-live"), "polite")
        self.assertFalse(ana.find_element(By.ID, "web-push-unsubscribe").is_displayed())
        self.assertEqual(section.get_attribute("data-vapid-key"), self.server.vapid_public_key)

        # A browser that blocks Spotter's notifications says so.
        self.set_notifications(ana, "denied")
        self.press(ana, "web-push-subscribe")
        self.wait_status(ana, DENIED)

        # Allowed, subscribing registers the worker for the whole site, under the app's policy; this browser's
        # push service is out of reach, and the page says so rather than wait for ever.
        self.set_notifications(ana, "granted")
        subscriptions = self.server.web_push_endpoints()
        self.press(ana, "web-push-subscribe")
        worker = self.wait(ana, lambda d: d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.getRegistration("/").then((r) => done(r && r.active && {
              scope: r.scope, script: r.active.scriptURL,
              controls: !!navigator.serviceWorker.controller}), () => done(null));"""), "the worker did not register")
        self.assertEqual(worker["scope"], f"{self.base}/")
        self.assertEqual(worker["script"], f"{self.base}/sw.js")
        headers = ana.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch("/sw.js").then((r) => done({type: r.headers.get("content-type"),
                                              policy: r.headers.get("content-security-policy")}));""")
        self.assertTrue(headers["type"].startswith("text/javascript"))
        self.assertIn("script-src 'self'", headers["policy"])
        self.wait_status(ana, UNREACHABLE, timeout=30)
        self.assertTrue(ana.find_element(By.ID, "web-push-subscribe").is_enabled(), "subscribing can be tried again")
        self.shot(ana, "web-push-02-unreachable-desktop")
        self.assertEqual(self.server.web_push_endpoints(), subscriptions,
                         "a subscription that never was reached the server")

        # The worker's registration, as DevTools reports it, to hand it pushes.
        tools = DevTools(ana)
        self.addCleanup(tools.close)
        page = tools.attach_page(ana.current_url)
        tools.command("ServiceWorker.enable", session=page)
        registration = tools.wait_for_event(
            "ServiceWorker.workerRegistrationUpdated",
            lambda p: any(r["scopeURL"] == f"{self.base}/" and not r["isDeleted"] for r in p["registrations"]),
            session=page)["registrations"]
        registration = next(r for r in registration if r["scopeURL"] == f"{self.base}/")["registrationId"]

        # A push as the server sends it shows as a notification: its title, its body, its tag.
        self.push(tools, page, registration, {
            "title": "Bo gave kudos", "body": "on Heavy Monday", "badge": "1", "tag": f"kudos-{post_id}",
            "url": f"/posts/{post_id}"})
        shown = self.desktop.wait_for(lambda n: n["summary"] == "Bo gave kudos")
        self.assertIn("on Heavy Monday", shown["body"])
        self.assertEqual(self.page_notifications(ana), [
            {"title": "Bo gave kudos", "body": "on Heavy Monday", "tag": f"kudos-{post_id}",
             "url": f"/posts/{post_id}"}])

        # A newer batch with the same tag replaces it, on the desktop too.
        self.push(tools, page, registration, {
            "title": "Bo and Cy gave kudos", "body": "on Heavy Monday", "badge": "2", "tag": f"kudos-{post_id}",
            "url": f"/posts/{post_id}"})
        newer = self.desktop.wait_for(lambda n: n["summary"] == "Bo and Cy gave kudos")
        self.assertEqual(newer["id"], shown["id"], "the newer batch did not replace the older one")
        self.assertEqual([n["title"] for n in self.page_notifications(ana)], ["Bo and Cy gave kudos"])

        # Clicking it takes her open Spotter tab to the post, and the notification goes.
        self.desktop.click(newer["id"])
        self.wait(ana, ec.url_to_be(f"{self.base}/posts/{post_id}"), "the click did not open the post")
        self.wait(ana, ec.text_to_be_present_in_element((By.TAG_NAME, "main"), "Heavy Monday"))
        self.assertEqual(len(ana.window_handles), 1, "the click opened a window beside her open tab")
        self.wait(ana, lambda d: self.page_notifications(d) == [], "the clicked notification stayed")
        self.shot(ana, "web-push-03-clicked-post-desktop")

        # With no Spotter tab open, a click opens one; a route that isn't a path here opens the inbox.
        ana.get("about:blank")
        self.push(tools, page, registration, {
            "title": "Cy follows you", "body": "Say hello", "tag": "follow", "url": "https://elsewhere.example/x"})
        elsewhere = self.desktop.wait_for(lambda n: n["summary"] == "Cy follows you")
        self.desktop.click(elsewhere["id"])
        self.wait(ana, lambda d: len(d.window_handles) == 2, "the click opened no window")
        ana.switch_to.window(ana.window_handles[-1])
        self.wait(ana, ec.url_to_be(f"{self.base}/notifications"), "the click did not open the inbox")
        self.no_script_errors(ana)

    def test_a_phone_subscribes_and_unsubscribes_and_the_server_follows(self):
        bo = self.bo
        self.sign_up(bo, f"bo_{self.suffix}")
        bo.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PUSH_SERVICE_STAND_IN})
        self.set_notifications(bo, "granted")
        self.show_settings(bo, "web-push-04-phone")
        self.wait_status(bo, NOT_SUBSCRIBED)

        # Subscribing hands the subscription, made with the server's key, to the server.
        self.press(bo, "web-push-subscribe")
        self.wait_status(bo, SUBSCRIBED)
        self.assertTrue(bo.find_element(By.ID, "web-push-unsubscribe").is_displayed())
        self.assertFalse(bo.find_element(By.ID, "web-push-subscribe").is_displayed())
        subscription = json.loads(bo.execute_script("return localStorage.getItem('story-push-subscription')"))
        self.assertEqual(bo.execute_script("return localStorage.getItem('story-push-key')"),
                         bo.find_element(By.ID, "web-push").get_attribute("data-vapid-key"))
        self.assertIn(subscription["endpoint"], self.server.web_push_endpoints())
        self.shot(bo, "web-push-05-subscribed-phone")
        self.check_accessibility(bo, "notification settings with this browser subscribed")

        # Back later, the page knows this browser is subscribed; with pushes turned off, it says they won't come.
        bo.refresh()
        self.wait_status(bo, SUBSCRIBED)
        push = bo.find_element(By.CSS_SELECTOR, "#notifications-form input[name=push]")
        self.assertTrue(push.is_selected())
        bo.execute_script("arguments[0].scrollIntoView({block: 'center'})", push)
        push.click()
        bo.find_element(By.CSS_SELECTOR, "#notifications-form button[type=submit]").click()
        self.wait(bo, lambda d: d.find_elements(By.ID, "saved-notice"), "saving did not say it saved")
        self.wait_status(bo, PUSHES_OFF)

        # Unsubscribing tells the server first, then the browser.
        self.press(bo, "web-push-unsubscribe")
        self.wait_status(bo, UNSUBSCRIBED)
        self.assertNotIn(subscription["endpoint"], self.server.web_push_endpoints())
        self.assertIsNone(bo.execute_script("return localStorage.getItem('story-push-subscription')"))
        self.assertTrue(bo.find_element(By.ID, "web-push-subscribe").is_displayed())

        # Subscribed again, signing out unsubscribes this browser: the next person here doesn't get Bo's pushes.
        self.press(bo, "web-push-subscribe")
        self.wait_status(bo, PUSHES_OFF)
        subscription = json.loads(bo.execute_script("return localStorage.getItem('story-push-subscription')"))
        self.assertIn(subscription["endpoint"], self.server.web_push_endpoints())
        self.no_script_errors(bo)
        bo.find_element(By.CSS_SELECTOR, "details.menu summary").click()
        bo.find_element(By.CSS_SELECTOR, "details.menu form[action='/signout'] button").click()
        self.wait(bo, lambda d: not d.find_elements(By.CSS_SELECTOR, "body[data-user-id]"), "signing out failed")
        self.assertNotIn(subscription["endpoint"], self.server.web_push_endpoints())
        self.assertIsNone(bo.execute_script("return localStorage.getItem('story-push-subscription')"))


if __name__ == "__main__":
    unittest.main()
