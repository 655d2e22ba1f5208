"""What every browser story shares: headless Chromium, waiting without sleeping, screenshots, signing up,
and the accessibility check (axe-core, carried by axe-selenium-python).

Stories live in Tests/Browser/test_*.py and run against one live server (scripts/browser-test); each makes its
own people with a random suffix so they never meet another story's.
"""

import os
import unittest
import uuid

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ.get("SPOTTER_BASE_URL", "http://127.0.0.1:8080")
ARTIFACTS = os.environ.get("SPOTTER_ARTIFACTS", ".test-artifacts")
WAIT = 10


def browser(width=1200, height=900, env=None):
    """Headless Chromium at this size; `env` adds to the environment Chromium starts with (a story's own D-Bus)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--lang=en-US"):
        options.add_argument(argument)
    if width < 500:
        options.add_argument("--hide-scrollbars")  # a phone's scrollbars take no width
    # Collect the console so a script error fails the story with its message.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"),
                      env={**os.environ, **env} if env else None)
    driver = webdriver.Chrome(options=options, service=service)
    if width < 500:
        # Headless Chromium makes no window narrower than 500 px, whatever --window-size says: a "412 px" window
        # was 500 px wide, and a header that overflowed at 412 passed. The page gets the phone's width. (Not
        # `mobile: True`: with it, clicks land beside the element in a window wider than its page.)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


class BrowserStory(unittest.TestCase):
    """A story with two people: `ana` at desktop size and `bo` in a phone-sized window."""

    # The server the helpers below sign up and post on; a story with a server of its own sets its own.
    base = BASE

    def setUp(self):
        self.suffix = uuid.uuid4().hex[:6]
        self.ana = browser()
        self.bo = browser(width=412, height=915)  # a phone-sized window: the layout must hold there too
        self.addCleanup(self.ana.quit)
        self.addCleanup(self.bo.quit)

    # --- helpers -------------------------------------------------------------------------------------------

    def wait(self, driver, condition, message=""):
        def settled(d):
            try:
                return condition(d)
            except WebDriverException as error:
                # A page being replaced (a form's redirect) can take a node away between finding it and reading
                # it. Chromium reports that as a stale element, or since version 156 sometimes as an inspector
                # error; either way the next poll reads the new page.
                if isinstance(error, StaleElementReferenceException) or "does not belong to the document" in str(error):
                    return False
                raise
        return WebDriverWait(driver, WAIT).until(settled, message)

    def shot(self, driver, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        driver.save_screenshot(os.path.join(ARTIFACTS, f"{name}.png"))

    def sign_up(self, driver, username, screenshot=None):
        driver.get(f"{self.base}/signup")
        driver.find_element(By.ID, "username").send_keys(username)
        driver.find_element(By.ID, "email").send_keys(f"{username}@example.com")
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        if screenshot:
            self.shot(driver, screenshot)
        driver.find_element(By.CSS_SELECTOR, "form[action='/signup'] button[type=submit]").click()
        self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")),
                  "signing up did not sign in")

    def wait_live(self, driver):
        self.wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "online",
                  "the realtime socket did not connect")

    def log_workout(self, driver, title, exercise, sets):
        driver.get(f"{self.base}/compose")
        driver.find_element(By.ID, "title").send_keys(title)
        driver.find_element(By.ID, "exercise-0").send_keys(exercise)
        for index, (weight, reps) in enumerate(sets):
            if index > 0:
                driver.find_element(By.CSS_SELECTOR, ".exercise .add-set").click()
            rows = driver.find_elements(By.CSS_SELECTOR, ".exercise tbody tr")
            weight_field = rows[index].find_element(By.NAME, "set_weight")
            reps_field = rows[index].find_element(By.NAME, "set_reps")
            weight_field.clear()
            weight_field.send_keys(str(weight))
            reps_field.clear()
            reps_field.send_keys(str(reps))
        driver.find_element(By.ID, "workout-text").send_keys("Felt strong #legday")
        return driver

    def badge(self, driver):
        badge = driver.find_element(By.ID, "unread-badge")
        return 0 if not badge.is_displayed() else int(badge.text or "0")

    def no_script_errors(self, driver):
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "favicon" not in entry["message"] and "status of 403" not in entry["message"]]
        self.assertEqual(errors, [], "the page's script reported errors")

    def check_accessibility(self, driver, page):
        """No serious or critical axe-core violations on the page as it is now."""
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        described = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
                     for v in serious]
        self.assertEqual(described, [], f"accessibility violations on {page}")

    def set_color_scheme(self, driver, scheme):
        """Makes the page see `prefers-color-scheme: light` or `dark`, as a system setting would."""
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
