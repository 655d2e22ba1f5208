"""What the encrypted groups' stories share: the page's E2E status line, waiting for the browser's crypto (which
takes longer than a page load), and finding a sealed post once the browser has opened it."""

import time

from selenium.webdriver.common.by import By

from browser_support import BrowserStory

# Sealing, opening and key rotation run in the page's JavaScript after the page loads: a slow shared machine
# needs longer than `browser_support.WAIT` for them.
WAIT_LONG = 30


class E2EStory(BrowserStory):
    def press(self, driver, element):
        """Clicks after bringing the element to the middle of the window, clear of the pinned header."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def status(self, driver):
        """The page's E2E status line (what the browser says it is doing), or "" without one."""
        found = driver.find_elements(By.ID, "e2e-status")
        return found[0].text if found else ""

    def wait_long(self, driver, condition, message):
        """Polls `condition` until it gives something, for up to WAIT_LONG seconds; failing, says what the page
        said and which sealed items it held."""
        deadline = time.time() + WAIT_LONG
        while True:
            try:
                found = condition(driver)
                if found:
                    return found
            except Exception:  # a page being replaced mid-read: poll again
                pass
            if time.time() > deadline:
                posts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "[data-sealed]")]
                self.fail(f"{message}; the page says: {self.status(driver)!r}; its sealed items: {posts!r}")
            time.sleep(0.2)

    def opened_post(self, driver, text):
        """The sealed post the browser has opened whose text holds `text`, or None."""
        for element in driver.find_elements(By.CSS_SELECTOR, ".sealed-post[data-opened=true]"):
            if text in element.text:
                return element
        return None

    def image_loaded(self, driver, element):
        """Whether the element's first image has been drawn (a sealed photo is opened before it shows)."""
        images = element.find_elements(By.TAG_NAME, "img")
        return images and driver.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", images[0])

    def fetch_json(self, driver, path):
        """GET `path` as JSON from the page, with its session: what the server gives this browser."""
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {headers: {Accept: 'application/json'}}).then((r) => r.json()).then(done, "
            "(e) => done({error: String(e)}))", path)
