"""Workouts in an encrypted group across clients, and the group's roles kept by the server and followed by its chain.

Ana (a desktop browser) makes an encrypted family group: on the new-group form, ticking Encrypted chooses Private
where she sees it. Bo joins from a phone-sized browser, Ben from the terminal client (`spotter`, SpotterKit), each a
device; Ana's page adds both to the group's key chain.

Roles: Ana makes Bo an admin on the members page, then hands him the group; each time the server lists the role as
due (`roles_due`) and Ana's page, the chain owner's device, signs it into the chain. Bo, the owner now, makes Ana a
member again, and his phone's page signs that.

Workouts: Ana logs a strength workout with a photo on `/compose?group=<the family>`, the builder sealed in her
browser (no "Everyone" on it); her page shows it as a workout card, and Ben's terminal opens it with every set.
Ben logs a run from the terminal, which both browsers show as a workout card; Bo logs a swim at phone size, which
Ben's terminal opens. The server's files hold none of the three titles (a plain post's words, searched the same
way, are found). `/compose?group=` of a group Bo is not in is refused, not swapped for a public form.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL, SPOTTER_SERVER_PID (whose
executable is the terminal client too) and SPOTTER_DATA_DIR. Screenshots go to .test-artifacts/.
"""

import json
import os
import pathlib
import subprocess
import tempfile
import unittest
import urllib.request

from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE
from e2e_support import E2EStory

DATA_DIR = os.environ.get("SPOTTER_DATA_DIR")
PASSWORD = "correct horse battery"
HOLDS_KEYS = "This browser holds this group's keys."


class EncryptedWorkoutsStory(E2EStory):
    def setUp(self):
        super().setUp()
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.photo = os.path.join(folder.name, "squat-rack.jpg")
        # Drawn with Pillow: a small photo whose look says nothing; its bytes are what the server must not hold.
        Image.effect_noise((640, 480), 64).convert("RGB").save(self.photo, "JPEG", quality=90)
        self.terminal_home = os.path.join(folder.name, "ben-terminal")

    # --- helpers -------------------------------------------------------------------------------------------

    def show(self, driver, element):
        """Scrolls `element` to the top of the window, below the page's sticky header."""
        driver.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top + window.scrollY - 72)",
                              element)

    def chain_roles(self, driver, group_id):
        """The group's members and roles by its chain, as this browser verifies it."""
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.SpotterE2EGroup.verifiedChain(arguments[0]).then((r) => done(r.chain.members), "
            "(e) => done({error: String(e)}))", group_id)

    def text(self, element):
        """What an element says, as written (`.text` is as shown: the type's tag is drawn in capitals)."""
        return " ".join(element.get_attribute("textContent").split())

    def user_id(self, driver):
        return driver.find_element(By.TAG_NAME, "body").get_attribute("data-user-id")

    def spotter(self, *args):
        """Runs the terminal client as Ben (its own home folder), answering what it printed."""
        binary = os.environ.get("SPOTTER_BINARY") or os.readlink(f"/proc/{os.environ['SPOTTER_SERVER_PID']}/exe")
        result = subprocess.run([binary, *args], env={**os.environ, "SPOTTER_HOME": self.terminal_home},
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, f"spotter {' '.join(args)}: {result.stdout}{result.stderr}")
        return result.stdout

    def invitation_link(self, driver, group_path):
        driver.get(f"{BASE}{group_path}/settings")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]"))
        link = self.wait(driver, lambda d: d.find_element(By.ID, "invitation-link")).get_attribute("value")
        return link if link.startswith("http") else BASE + link

    def member_action(self, driver, group_path, label, confirm=False):
        """Presses the members page's button `label` (its aria-label) and waits for the page it leads to."""
        driver.get(f"{BASE}{group_path}/members")
        button = driver.find_element(By.CSS_SELECTOR, f"button[aria-label='{label}']")
        self.press(driver, button)
        if confirm:
            driver.switch_to.alert.accept()
        self.wait(driver, ec.staleness_of(button), f"pressing {label} did not lead anywhere")

    def reconciled(self, driver, group_url, message):
        driver.get(group_url)
        self.wait_long(driver, lambda d: self.status(d) == HOLDS_KEYS, message)

    def fill_sets(self, driver, sets):
        for index, (weight, reps) in enumerate(sets):
            if index > 0:
                self.press(driver, driver.find_element(By.CSS_SELECTOR, ".exercise .add-set"))
            row = driver.find_elements(By.CSS_SELECTOR, ".exercise tbody tr")[index]
            for name, value in (("set_weight", weight), ("set_reps", reps)):
                field = row.find_element(By.NAME, name)
                field.clear()
                field.send_keys(str(value))

    # --- the story -----------------------------------------------------------------------------------------

    def test_workouts_sealed_in_one_client_open_in_another_and_roles_follow_the_server(self):
        ana, bo = self.ana, self.bo
        s = self.suffix
        self.sign_up(ana, f"ana_{s}")

        # The new-group form: ticking Encrypted chooses Private where Ana sees it, and greys out the others.
        ana.get(f"{BASE}/groups/new")
        ana.find_element(By.ID, "group-name").send_keys(f"Family {s}")
        self.assertTrue(ana.find_element(By.CSS_SELECTOR, "input[name=access][value=open]").is_selected())
        self.press(ana, ana.find_element(By.ID, "group-encrypted"))
        self.assertTrue(ana.find_element(By.CSS_SELECTOR, "input[name=access][value=private]").is_selected())
        for other in ("open", "request"):
            self.assertFalse(ana.find_element(By.CSS_SELECTOR, f"input[name=access][value={other}]").is_enabled())
        self.shot(ana, "e2e-workouts-01-new-encrypted-group")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        group_url = ana.current_url.split("?")[0]
        group_path = group_url[len(BASE):]
        group_id = group_path.rsplit("/", 1)[1]
        self.assertIn("Private", ana.page_source)
        self.wait_long(ana, lambda d: self.status(d) == HOLDS_KEYS, "Ana's browser did not make the group's keys")
        ana_id = self.user_id(ana)

        # Ben, in his terminal: signed up, signed in, this terminal his device, in the group by a link.
        body = json.dumps({"email": f"ben_{s}@example.com", "username": f"ben_{s}", "password": PASSWORD}).encode()
        urllib.request.urlopen(urllib.request.Request(
            f"{BASE}/api/v1/auth/signup", body, {"Content-Type": "application/json"})).read()
        self.spotter("login", f"ben_{s}", "--server", BASE, "--password", PASSWORD)
        self.assertIn("This terminal is your device", self.spotter("e2e", "register", "--name", "Ben's terminal"))
        self.spotter("groups", "join-link", self.invitation_link(ana, group_path))

        # Bo, on his phone, joins by another link; his browser becomes his device and waits for the keys.
        link = self.invitation_link(ana, group_path)
        self.sign_up(bo, f"bo_{s}")
        bo_id = self.user_id(bo)
        bo.get(link)
        self.press(bo, self.wait(bo, lambda d: d.find_element(By.CSS_SELECTOR, "#join-by-code button[type=submit]")))
        self.wait(bo, ec.url_contains("done=joined"))
        self.wait_long(bo, lambda d: "Waiting" in self.status(d), "Bo's browser did not wait for the keys")

        # Ana's page adds both to the chain and wraps them the keys.
        self.reconciled(ana, group_url, "Ana's page did not add Ben and Bo")
        state = self.fetch_json(ana, f"/e2e{group_path}/e2e")
        self.assertEqual((state["awaiting_keys"], state["roles_due"]), ([], []))
        roles = self.chain_roles(ana, group_id)
        self.assertEqual(len(roles), 3, roles)
        ben_id = next(user for user in roles if user not in (ana_id, bo_id))
        self.reconciled(bo, group_url, "Bo did not get the group's keys")

        # Roles: Ana makes Bo an admin on the site; the server says the chain must follow, and her page signs it.
        self.member_action(ana, group_path, f"Make bo_{s} an admin")
        state = self.fetch_json(ana, f"/e2e{group_path}/e2e")
        self.assertEqual(state["roles_due"], [{"user_id": bo_id, "role": "admin"}])
        self.reconciled(ana, group_url, "Ana's page did not bring the chain's roles up to date")
        self.assertEqual(self.chain_roles(ana, group_id)[bo_id], "admin")
        self.assertEqual(self.fetch_json(ana, f"/e2e{group_path}/e2e")["roles_due"], [])

        # She hands Bo the group on the site: her device, still the chain's owner, signs the hand-over.
        self.member_action(ana, group_path, f"Make bo_{s} the owner", confirm=True)
        state = self.fetch_json(ana, f"/e2e{group_path}/e2e")
        self.assertEqual(state["roles_due"], [{"user_id": bo_id, "role": "owner"}])
        self.reconciled(ana, group_url, "Ana's page did not hand the chain over")
        roles = self.chain_roles(ana, group_id)
        self.assertEqual((roles[bo_id], roles[ana_id]), ("owner", "admin"))

        # Bo, the owner now, makes Ana a member again on his phone; his page, the chain's owner's, signs it.
        self.member_action(bo, group_path, f"Make ana_{s} a member, not an admin")
        self.assertEqual(self.fetch_json(bo, f"/e2e{group_path}/e2e")["roles_due"],
                         [{"user_id": ana_id, "role": "member"}])
        self.reconciled(bo, group_url, "Bo's page did not bring the chain's roles up to date")
        roles = self.chain_roles(bo, group_id)
        self.assertEqual((roles[ana_id], roles[bo_id], roles[ben_id]), ("member", "owner", "member"))
        self.assertEqual(self.fetch_json(bo, f"/e2e{group_path}/e2e")["roles_due"], [])
        self.shot(bo, "e2e-workouts-02-phone-group-after-roles")
        self.no_script_errors(bo)

        # Ana logs a workout to the family: the builder, sealed in her browser, with no "Everyone" on it.
        leg_day = f"Leg day {s}"
        ana.get(group_url)
        log = self.wait_long(ana, lambda d: d.find_element(By.ID, "sealed-log-workout").is_displayed()
                             and d.find_element(By.ID, "sealed-log-workout"), "no Log a workout on the group")
        self.press(ana, log)
        self.wait_long(ana, lambda d: d.find_element(By.ID, "workout-form").is_displayed(), "no sealed builder")
        self.assertIn("sealed here before it leaves", self.status(ana))
        self.assertEqual(ana.find_elements(By.ID, "workout-visibility"), [])
        self.assertEqual(ana.find_elements(By.ID, "note-form"), [])
        self.shot(ana, "e2e-workouts-03-sealed-builder")
        ana.find_element(By.ID, "title").send_keys(leg_day)
        ana.find_element(By.ID, "exercise-0").send_keys("Back Squat")
        self.fill_sets(ana, [(100, 5), (100, 5)])
        minutes = ana.find_element(By.ID, "duration")
        minutes.clear()
        minutes.send_keys("45")
        ana.find_element(By.ID, "workout-text").send_keys("Felt strong")
        ana.find_element(By.ID, "sealed-workout-photos").send_keys(self.photo)
        self.shot(ana, "e2e-workouts-03b-sealed-builder-filled")
        self.check_accessibility(ana, "the sealed workout builder")
        self.press(ana, ana.find_element(By.ID, "sealed-workout-submit"))
        self.wait_long(ana, lambda d: d.current_url.split("?")[0] == group_url, "posting did not return to the group")
        post = self.wait_long(ana, lambda d: self.opened_post(d, leg_day), "Ana's workout did not open on her page")
        card = self.text(post.find_element(By.CSS_SELECTOR, ".workout"))
        for shown in ("Strength", leg_day, "Back Squat", "2 sets of 5 × 100 kg", "45 min", "1000 kg lifted"):
            self.assertIn(shown, card)
        self.assertIn("Felt strong", post.text)
        self.wait_long(ana, lambda d: d.execute_script(
            "const i = arguments[0].querySelector('img'); return i && i.complete && i.naturalWidth > 0",
            self.opened_post(d, leg_day)), "the workout's photo did not open")
        self.show(ana, post.find_element(By.XPATH, "./ancestor::article"))
        self.shot(ana, "e2e-workouts-04-workout-card")
        self.no_script_errors(ana)

        # Ben's terminal opens it, every set as he would type it.
        feed = self.spotter("e2e", "feed", group_id)
        self.assertIn(f"  Strength · {leg_day}: 1 exercise\n    Back Squat: 100x5, 100x5\n  Felt strong\n  1 photo\n",
                      feed)
        self.assertIn(f"    Back Squat: 100x5, 100x5", self.spotter("groups", "feed", group_id))

        # Ben logs a run from the terminal; both browsers show it as a workout card.
        run = f"Harbour run {s}"
        sent = self.spotter("e2e", "post", group_id, "Windy out there", "--title", run, "--exercise", "Run",
                            "--distance", "5.2km", "--duration", "30:45")
        self.assertTrue(sent.startswith("sent: sealed workout"), sent)
        for driver in (ana, bo):
            driver.get(group_url)
            post = self.wait_long(driver, lambda d: self.opened_post(d, run), "Ben's run did not open")
            card = self.text(post.find_element(By.CSS_SELECTOR, ".workout"))
            for shown in ("Cardio", run, "Run", "5.2 km · 30:45 · 5:55 /km", "31 min"):
                self.assertIn(shown, card)
        self.show(bo, self.opened_post(bo, run).find_element(By.XPATH, "./ancestor::article"))
        self.shot(bo, "e2e-workouts-05-phone-terminal-run")

        # Bo logs a swim at phone size; Ben's terminal opens it.
        swim = f"Pool {s}"
        bo.get(f"{BASE}/compose?group={group_id}")
        self.wait_long(bo, lambda d: d.find_element(By.ID, "workout-form").is_displayed(),
                       "no sealed builder on the phone")
        self.assertEqual(bo.find_elements(By.ID, "workout-visibility"), [])
        # Sent empty, it is refused here (the server cannot check what it cannot read), the fields marked.
        self.press(bo, bo.find_element(By.ID, "sealed-workout-submit"))
        error = self.wait(bo, lambda d: d.find_element(By.ID, "sealed-error").is_displayed()
                          and d.find_element(By.ID, "sealed-error"))
        self.assertIn("Give the workout a title", error.text)
        self.assertEqual(bo.find_element(By.ID, "title").get_attribute("aria-invalid"), "true")
        bo.find_element(By.ID, "title").send_keys(swim)
        bo.find_element(By.CSS_SELECTOR, "#type option[value=cardio]").click()
        bo.find_element(By.ID, "exercise-0").send_keys("Swim")
        bo.find_element(By.ID, "exercise-0-distance").send_keys("1.5")
        bo.find_element(By.ID, "exercise-0-time").send_keys("32:00")
        self.shot(bo, "e2e-workouts-06-phone-sealed-builder")
        self.check_accessibility(bo, "the sealed workout builder (phone)")
        self.press(bo, bo.find_element(By.ID, "sealed-workout-submit"))
        post = self.wait_long(bo, lambda d: self.opened_post(d, swim), "Bo's swim did not open on his page")
        self.assertIn("1.5 km · 32:00 · 21:20 /km", post.text)
        self.assertIn("32 min", post.text)
        self.show(bo, post.find_element(By.XPATH, "./ancestor::article"))
        self.shot(bo, "e2e-workouts-07-phone-swim-card")
        self.no_script_errors(bo)
        self.assertIn(f"  Cardio · {swim}: Swim 1.5 km · 32:00 · 21:20 /km\n"
                      "    Swim: 1.5 km · 32:00 · 21:20 /km\n", self.spotter("e2e", "feed", group_id))

        # A group Bo is not in: its compose page is refused, never a public form in its place.
        club = f"Club {s}"
        ana.get(f"{BASE}/groups/new")
        ana.find_element(By.ID, "group-name").send_keys(club)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        club_id = ana.current_url.split("?")[0].rsplit("/", 1)[1]
        control = f"Plain words {s}"
        ana.find_element(By.ID, "group-note-text").send_keys(control)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-note-form button[type=submit]"))
        self.wait(ana, lambda d: control in d.find_element(By.ID, "feed").text)
        bo.get(f"{BASE}/compose?group={club_id}")
        self.assertIn(f"Only members post to {club}.", bo.page_source)
        self.assertEqual(bo.find_elements(By.ID, "workout-form"), [])
        self.shot(bo, "e2e-workouts-08-phone-compose-refused")
        bo.get_log("browser")  # the refusal's 403 is expected

        self.search_the_server([leg_day, run, swim], control)

    def search_the_server(self, secrets, control):
        """No file of the server's data directory holds any of `secrets`; the plain `control` is found."""
        self.assertTrue(DATA_DIR and os.path.isdir(DATA_DIR), "SPOTTER_DATA_DIR names no data directory")
        files = [path for path in pathlib.Path(DATA_DIR).rglob("*") if path.is_file()]
        photo = pathlib.Path(self.photo).read_bytes()
        chunk = photo[len(photo) // 2: len(photo) // 2 + 64]

        def holding(needle):
            return [str(path) for path in files if needle in path.read_bytes()]

        self.assertTrue(holding(control.encode()), "the search did not find a plain post: it proves nothing")
        for secret in secrets:
            self.assertEqual(holding(secret.encode()), [], f"the server's files hold {secret!r}")
        self.assertEqual(holding(chunk), [], "the server's files hold the photo's bytes")


if __name__ == "__main__":
    unittest.main()
