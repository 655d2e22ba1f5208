"""The profile's progress: an empty profile says "No workouts yet"; a lifter's shows workouts per week (the
bar's height and its number the same quantity) and the main lifts' estimated one-rep max, readable on a phone.

Workouts are posted through the JSON API (dated over the past weeks, which the builder cannot do in a story's
minute); the pages are read in the browsers, at desktop and phone sizes, with axe-core on each.
"""

import json
import unittest
import urllib.request
from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory


def api(method, path, body=None, token=None):
    request = urllib.request.Request(f"{BASE}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


def stamp(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ProgressStory(BrowserStory):
    def test_progress_on_the_profile(self):
        newcomer, lifter = f"new_{self.suffix}", f"lifter_{self.suffix}"

        # A newcomer's own profile says there is nothing yet, instead of drawing an empty plot.
        self.sign_up(self.ana, newcomer)
        self.ana.get(f"{BASE}/u/{newcomer}")
        empty = self.ana.find_element(By.CSS_SELECTOR, "figure.chart")
        self.assertIn("No workouts yet", empty.text)
        self.assertIn("0 workouts in the last 12 weeks", empty.text)
        self.assertFalse(self.ana.find_elements(By.CSS_SELECTOR, ".week-bars"))
        self.shot(self.ana, "progress-01-empty-desktop")
        self.check_accessibility(self.ana, "an empty profile (desktop)")

        # A lifter squats three weeks running, heavier each time, benches once, and runs.
        token = api("POST", "/api/v1/auth/signup", {"email": f"{lifter}@example.com", "username": lifter,
                                                    "password": "correct horse battery"})["access_token"]
        now = datetime.now(timezone.utc)
        for weeks_ago, weight in ((2, 100), (1, 105), (0, 110)):
            start = now - timedelta(weeks=weeks_ago, hours=2)
            api("POST", "/api/v1/posts", {"kind": "workout", "text": "", "workout": {
                "title": "Heavy squats", "type": "strength", "start_time": stamp(start),
                "end_time": stamp(start + timedelta(hours=1)), "completed": True,
                "exercises": [{"name": "Back Squat", "sets": [{"weight_kg": weight, "reps": 5}] * 3},
                              {"name": "Bench Press", "sets": [{"weight_kg": 70, "reps": 5}]}]}}, token)
        start = now - timedelta(hours=1)
        api("POST", "/api/v1/posts", {"kind": "workout", "text": "Easy run #running", "workout": {
            "title": "Easy run", "type": "cardio", "start_time": stamp(start),
            "end_time": stamp(start + timedelta(minutes=50)), "completed": True,
            "exercises": [{"name": "Run", "cardio": {"distance_m": 8000, "duration_s": 2900}}]}}, token)

        # On a phone, the lifter's profile shows workouts per week: the number on each bar is what its height
        # says, and a busier week stands taller.
        self.bo.get(f"{BASE}/u/{lifter}")
        chart = self.wait(self.bo, ec.presence_of_element_located((By.CSS_SELECTOR, "figure.chart .week-bars")))
        self.assertIn("Workouts per week", self.bo.find_element(By.CSS_SELECTOR, "figure.chart").text)
        self.assertIn("4 workouts in the last 12 weeks", self.bo.find_element(By.CSS_SELECTOR, "figure.chart").text)
        bars = self.bo.find_elements(By.CSS_SELECTOR, ".week-bar")
        self.assertEqual(len(bars), 12)
        counts = [int(bar.find_element(By.CSS_SELECTOR, ".week-count").text or "0") for bar in bars]
        heights = [float(bar.find_element(By.CSS_SELECTOR, ".week-fill rect").get_attribute("height"))
                   for bar in bars]
        self.assertEqual(counts[-1], 2)
        self.assertEqual(counts[-2], 1)
        self.assertGreater(heights[-1], heights[-2])
        self.assertEqual(heights[-2], heights[-3])

        # The labels are at least 12 px on the phone.
        sizes = self.bo.execute_script(
            "return [...document.querySelectorAll('.week-count, .week-label, .chart-summary, .lift-figures')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))")
        self.assertTrue(sizes)
        self.assertGreaterEqual(min(sizes), 12)

        # And the main lifts: the squat's estimated one-rep max climbs, the bench holds.
        lifts = self.bo.find_elements(By.CSS_SELECTOR, ".lift")
        self.assertEqual([lift.find_element(By.CSS_SELECTOR, ".lift-name").text for lift in lifts],
                         ["Back Squat", "Bench Press"])
        self.assertIn("Best 128.5 kg", lifts[0].text)  # 110 × (1 + 5 / 30)
        line = lifts[0].find_element(By.CSS_SELECTOR, "svg.lift-line")
        self.assertIn("116.5 kg", line.get_attribute("aria-label"))  # 100 × (1 + 5 / 30), the first week
        self.bo.execute_script("arguments[0].scrollIntoView()", chart)
        self.shot(self.bo, "progress-02-lifter-phone")
        self.check_accessibility(self.bo, "a lifter's profile (phone)")

        # The same profile at desktop size, light and dark.
        self.ana.get(f"{BASE}/u/{lifter}")
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, ".lift")))
        self.shot(self.ana, "progress-03-lifter-desktop")
        self.check_accessibility(self.ana, "a lifter's profile (desktop)")
        self.set_color_scheme(self.ana, "dark")
        self.ana.get(f"{BASE}/u/{lifter}")
        self.wait(self.ana, ec.presence_of_element_located((By.CSS_SELECTOR, ".lift")))
        self.shot(self.ana, "progress-04-lifter-desktop-dark")
        self.check_accessibility(self.ana, "a lifter's profile (desktop, dark)")


if __name__ == "__main__":
    unittest.main()
