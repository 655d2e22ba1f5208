"""Correcting a logged workout's numbers in a real browser: the edit page draws the builder with the workout's
exercises and sets, a set is changed and one added, and the post and its records follow; at desktop (Ana) and
phone (Bo) sizes, with axe on the edit page.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory


class WorkoutEditStory(BrowserStory):
    def press(self, driver, element):
        """Clicks after bringing the element to the middle of the window, clear of the pinned header."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def post_workout(self, driver, title, exercise, sets):
        self.log_workout(driver, title, exercise, sets)
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]"))
        self.wait(driver, ec.url_contains("/feed/following"))
        return driver.find_element(By.CSS_SELECTOR, "#feed article.post").get_attribute("data-post-id")

    def set_field(self, element, value):
        element.clear()
        element.send_keys(value)

    def correct(self, driver, post_id, name):
        """Opens the post's edit page, checks the builder holds its sets, lowers the first set to 100 and adds
        a set of 100 x 3; returns after saving, on the post's page."""
        driver.get(f"{BASE}/posts/{post_id}")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#post-page article.post").find_element(
            By.LINK_TEXT, "Edit"))
        self.wait(driver, ec.presence_of_element_located((By.ID, "edit-form")))
        self.assertEqual(driver.find_element(By.ID, "exercise-0").get_attribute("value"), "Back Squat")
        self.assertEqual([f.get_attribute("value") for f in driver.find_elements(By.NAME, "set_weight")],
                         ["110", "110"])
        self.assertEqual([f.get_attribute("value") for f in driver.find_elements(By.NAME, "set_reps")], ["5", "5"])
        self.assertEqual(driver.find_element(By.ID, "duration").get_attribute("value"), "")
        self.shot(driver, f"{name}-01-builder")
        self.check_accessibility(driver, f"edit workout ({name})")

        self.set_field(driver.find_element(By.ID, "set-0-0-weight"), "100")
        self.set_field(driver.find_element(By.ID, "set-0-1-weight"), "100")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, ".exercise .add-set"))
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, ".exercise tbody tr")), 3)
        self.set_field(driver.find_element(By.ID, "set-0-2-reps"), "3")
        self.set_field(driver.find_element(By.ID, "duration"), "50")
        self.shot(driver, f"{name}-02-corrected")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#edit-form button[type=submit]"))
        self.wait(driver, ec.url_contains(f"/posts/{post_id}"))
        self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#post-page article.post .edited")))
        card = driver.find_element(By.CSS_SELECTOR, "#post-page article.post")
        self.assertIn("2 sets of 5 × 100 kg, 3 × 100 kg", card.text)
        self.assertNotIn("110", card.text)
        self.assertIn("50 min", card.text)
        self.assertEqual(card.find_elements(By.CSS_SELECTOR, ".pr"), [], "a lowered squat is still a record")
        self.shot(driver, f"{name}-03-saved")
        self.no_script_errors(driver)

    def test_correcting_a_workouts_sets(self):
        ana, bo = self.ana, self.bo
        self.sign_up(ana, f"ana_{self.suffix}")
        self.sign_up(bo, f"bo_{self.suffix}")

        # Each logs squats twice: 100 kg, then 110 kg, a new record, without saying how long either took.
        records = {}
        for name, driver in (("ana", ana), ("bo", bo)):
            self.post_workout(driver, "Monday squats", "Back Squat", [(100, 5)])
            post_id = self.post_workout(driver, "Wednesday squats", "Back Squat", [(110, 5), (110, 5)])
            card = driver.find_element(By.CSS_SELECTOR, f"#feed article.post[data-post-id='{post_id}']")
            self.assertTrue(card.find_elements(By.CSS_SELECTOR, ".pr"), "110 kg was not a record")
            self.assertNotIn(" min", card.find_element(By.CSS_SELECTOR, ".workout-stats").text)
            records[name] = post_id

        # Ana corrects hers at desktop size, Bo his on a phone.
        self.correct(ana, records["ana"], "workout-edit-desktop")
        self.correct(bo, records["bo"], "workout-edit-phone")
        width = bo.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, bo.execute_script("return window.innerWidth"), "the phone page scrolls sideways")

        # Bo cannot open Ana's edit page: it says so, titled.
        bo.get(f"{BASE}/posts/{records['ana']}/edit")
        self.assertEqual(bo.title, "You can't edit this post · Spotter")
        self.assertIn("Only the author can edit this post.", bo.find_element(By.TAG_NAME, "main").text)
        self.shot(bo, "workout-edit-phone-04-someone-elses")


if __name__ == "__main__":
    unittest.main()
