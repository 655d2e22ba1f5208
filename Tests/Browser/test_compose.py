"""Logging workouts in a real browser: a cardio run with its pace, a refused form that keeps what was typed,
removing sets and exercises, at desktop (Ana) and phone (Bo) sizes, with axe on every state of /compose.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory


class ComposeStory(BrowserStory):
    def enter_run(self, driver, title, distance, unit, time):
        driver.get(f"{BASE}/compose")
        driver.find_element(By.ID, "title").send_keys(title)
        Select(driver.find_element(By.ID, "type")).select_by_value("cardio")
        self.wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".cardio-fields").is_displayed(),
                  "choosing cardio did not show distance and time")
        self.assertFalse(driver.find_element(By.CSS_SELECTOR, "table.sets").is_displayed())
        driver.find_element(By.ID, "exercise-0").send_keys("Run")
        driver.find_element(By.ID, "exercise-0-distance").send_keys(distance)
        Select(driver.find_element(By.NAME, "exercise_distance_unit")).select_by_value(unit)
        driver.find_element(By.ID, "exercise-0-time").send_keys(time)

    def no_script_errors(self, driver):
        """As BrowserStory's, but a refused form's 422 is the page working as meant, not a script error."""
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "favicon" not in entry["message"] and "status of 422" not in entry["message"]]
        self.assertEqual(errors, [], "the page's script reported errors")

    def press(self, driver, element):
        """Clicks a button after bringing it to the middle of the window, clear of the pinned header."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def submit(self, driver):
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#workout-form button[type=submit]"))

    def test_cardio_errors_and_removing_rows(self):
        ana, bo = self.ana, self.bo
        self.sign_up(ana, f"ana_{self.suffix}")
        ana.get(f"{BASE}/compose")
        self.check_accessibility(ana, "compose")

        # A run: distance and time give the pace as she types, and the post shows all three.
        self.enter_run(ana, "Tempo run", "5.2", "km", "30:45")
        self.wait(ana, ec.text_to_be_present_in_element((By.CSS_SELECTOR, ".exercise .pace"), "5:55 /km"),
                  "the pace did not show")
        self.assertEqual(ana.find_element(By.ID, "duration").get_attribute("value"), "31")
        self.shot(ana, "compose-01-cardio")
        self.check_accessibility(ana, "compose (cardio)")
        self.submit(ana)
        self.wait(ana, ec.url_contains("/feed/following"))
        post = ana.find_element(By.CSS_SELECTOR, "#feed article.post")
        self.assertEqual(post.find_element(By.CSS_SELECTOR, ".tag").get_attribute("textContent"), "Cardio")
        self.assertIn("5.2 km · 30:45 · 5:55 /km", post.text)
        self.shot(ana, "compose-02-cardio-posted")

        # A set with a weight and no reps: the form comes back with everything kept and the reps marked.
        ana.get(f"{BASE}/compose")
        ana.find_element(By.ID, "title").send_keys("Heavy Monday")
        Select(ana.find_element(By.ID, "type")).select_by_value("emom")
        ana.find_element(By.ID, "exercise-0").send_keys("Back Squat")
        ana.find_element(By.NAME, "set_weight").send_keys("100")
        ana.find_element(By.NAME, "set_reps").send_keys("5")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, ".add-set"))
        reps = ana.find_elements(By.NAME, "set_reps")[1]
        reps.clear()
        ana.find_element(By.ID, "workout-text").send_keys("Legs shaking")
        Select(ana.find_element(By.ID, "workout-visibility")).select_by_value("followers")
        self.submit(ana)
        self.wait(ana, ec.presence_of_element_located((By.ID, "form-summary")), "no error summary")
        self.assertEqual(ana.find_element(By.ID, "title").get_attribute("value"), "Heavy Monday")
        self.assertEqual(Select(ana.find_element(By.ID, "type")).first_selected_option.text, "EMOM")
        self.assertEqual(ana.find_element(By.ID, "exercise-0").get_attribute("value"), "Back Squat")
        self.assertEqual([f.get_attribute("value") for f in ana.find_elements(By.NAME, "set_weight")], ["100", "100"])
        self.assertEqual(ana.find_element(By.ID, "workout-text").get_attribute("value"), "Legs shaking")
        self.assertEqual(ana.find_element(By.ID, "note-text").get_attribute("value"), "")
        self.assertEqual(Select(ana.find_element(By.ID, "workout-visibility")).first_selected_option.text,
                         "Followers")
        marked = ana.find_element(By.ID, "set-0-1-reps")
        self.assertEqual(marked.get_attribute("aria-invalid"), "true")
        self.assertIn("Enter the reps", ana.find_element(By.ID, "set-0-1-reps-error").text)
        self.assertEqual(ana.switch_to.active_element.get_attribute("id"), "form-summary")
        self.shot(ana, "compose-03-error-kept")
        self.check_accessibility(ana, "compose (refused)")

        # She removes the half-done set and posts: it goes through with the one set.
        self.press(ana, ana.find_elements(By.CSS_SELECTOR, ".remove-set")[1])
        self.assertEqual(len(ana.find_elements(By.CSS_SELECTOR, ".exercise tbody tr")), 1)
        self.submit(ana)
        self.wait(ana, ec.url_contains("/feed/following"))
        post = ana.find_element(By.CSS_SELECTOR, "#feed article.post")
        self.assertEqual(post.find_element(By.CSS_SELECTOR, ".tag").get_attribute("textContent"), "EMOM")
        self.assertIn("5 × 100 kg", post.text)
        self.assertNotIn("105", post.text)
        self.no_script_errors(ana)

        # On a phone: add and remove exercises and sets, then a run in miles.
        self.sign_up(bo, f"bo_{self.suffix}")
        bo.get(f"{BASE}/compose")
        bo.find_element(By.ID, "exercise-0").send_keys("Bench Press")
        self.press(bo, bo.find_element(By.ID, "add-exercise"))
        self.assertEqual(len(bo.find_elements(By.CSS_SELECTOR, ".exercise")), 2)
        self.assertEqual(bo.switch_to.active_element.get_attribute("id"), "exercise-1")
        self.press(bo, bo.find_elements(By.CSS_SELECTOR, ".exercise")[1].find_element(By.CSS_SELECTOR, ".add-set"))
        self.assertEqual(len(bo.find_elements(By.CSS_SELECTOR, ".exercise")[1].find_elements(By.CSS_SELECTOR, "tbody tr")), 2)
        self.shot(bo, "compose-04-builder-phone")
        self.check_accessibility(bo, "compose (phone)")
        self.press(bo, bo.find_elements(By.CSS_SELECTOR, ".remove-exercise")[0])
        self.assertEqual(len(bo.find_elements(By.CSS_SELECTOR, ".exercise")), 1)
        self.assertEqual(bo.find_element(By.ID, "exercise-0").get_attribute("value"), "")
        self.assertEqual(bo.find_element(By.CSS_SELECTOR, ".exercise-head label").text, "Exercise 1")

        self.enter_run(bo, "Lunch run", "3.1", "mi", "31:00")
        self.wait(bo, ec.text_to_be_present_in_element((By.CSS_SELECTOR, ".exercise .pace"), "10:00 /mi"),
                  "the pace did not show in miles")
        self.shot(bo, "compose-05-cardio-phone")
        self.submit(bo)
        self.wait(bo, ec.url_contains("/feed/following"))
        # Bo reads kilometres (his units are kg/km): 3.1 mi is 4.99 km.
        self.assertIn("4.99 km · 31:00 · 6:13 /km", bo.find_element(By.CSS_SELECTOR, "#feed article.post").text)
        self.shot(bo, "compose-06-cardio-posted-phone")
        self.no_script_errors(bo)


if __name__ == "__main__":
    unittest.main()
