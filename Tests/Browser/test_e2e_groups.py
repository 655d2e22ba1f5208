"""An encrypted family group in two real browsers, and proof that the server never held what was shared.

Ana adds a child profile and creates an encrypted family group: her browser becomes a device of her account
(keys made by e2e.js, kept in IndexedDB), signs the group's `create` and makes its first key. Ben, in a second
browser, joins by an invitation link; his browser becomes his device. Ana's page reconciles: it signs `add` for
Ben and wraps him the group's key. Ana posts a photo with a caption for her child; Ben sees it opened in place
and comments, sealed; Ana sees his comment. Screenshots go to .test-artifacts/.

Then every file of the server's data directory (the SQLite database with its -wal and -shm, and the local blob
store under media/) is searched for the caption, the comment and a chunk of the photo's bytes: none may be
there. The child's name is in the `children` row Ana made in settings (child profiles are not encrypted), so
for it the database is searched table by table: only that row may hold it. A plain group's post, searched the
same way, is found: the search can fail. Browser stories run on SQLite only (scripts/browser-test), so there is
no PostgreSQL dump to search.

After the search: Ana makes a recovery key in settings and adds a third browser with its 24 words, which opens
the post; Ben leaves and Ana's page removes him and makes the next key; Ana deletes her post by a signed
tombstone. axe runs on the encrypted group's page, with an opened post, and on the safety numbers page.

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_DATA_DIR.
"""

import os
import pathlib
import sqlite3
import tempfile
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, browser
from e2e_support import E2EStory
from drawn_photos import noise_jpeg

DATA_DIR = os.environ.get("SPOTTER_DATA_DIR")


class EncryptedGroupStory(E2EStory):
    def setUp(self):
        super().setUp()
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        # Noise, not a gradient: its bytes don't repeat, so a chunk of them names this photo only.
        self.photo = noise_jpeg(folder.name, "lighthouse.jpg", (900, 600))

    def test_encrypted_family_group_keeps_its_content_from_the_server(self):
        ana, ben = self.ana, self.bo
        child = f"Zephyrine{self.suffix}"
        caption = f"Lighthouse walk {self.suffix}"
        remark = f"What a view {self.suffix}"
        self.sign_up(ana, f"ana_{self.suffix}")

        # Ana adds her daughter in settings.
        ana.get(f"{BASE}/settings/children")
        self.wait(ana, ec.presence_of_element_located((By.ID, "add-child")))
        ana.find_element(By.ID, "child-name").send_keys(child)
        ana.find_element(By.ID, "child-birth-year").send_keys("2017")
        self.press(ana, ana.find_element(By.ID, "add-child-button"))
        self.wait(ana, ec.url_contains("done=added"))

        # She creates an encrypted family group; her browser becomes a device and makes the group's keys.
        family = f"Family {self.suffix}"
        ana.get(f"{BASE}/groups/new")
        ana.find_element(By.ID, "group-name").send_keys(family)
        self.press(ana, ana.find_element(By.ID, "group-encrypted"))
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        group_url = ana.current_url.split("?")[0]
        group_path = group_url[len(BASE):]
        self.wait_long(ana, lambda d: self.status(d) == "This browser holds this group's keys.",
                       "Ana's browser did not make the group's keys")
        self.assertTrue(ana.find_element(By.ID, "sealed-compose").is_displayed())
        self.shot(ana, "e2e-01-encrypted-group-created")
        self.check_accessibility(ana, "encrypted group page")
        self.no_script_errors(ana)

        # Settings say this browser is now a device of her account, with her safety number.
        ana.get(f"{BASE}/settings")
        self.wait_long(ana, lambda d: "This browser is a device of your account (1 in all)" in self.status(d),
                       "settings did not show this browser as a device")
        ana_number = self.status(ana).rsplit(": ", 1)[1].rstrip(".")
        ana.execute_script("document.getElementById('e2e-device').scrollIntoView({block: 'center'})")
        self.shot(ana, "e2e-01b-settings-this-browser")

        # An invitation link for Ben.
        ana.get(f"{BASE}{group_path}/settings")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]"))
        link = self.wait(ana, lambda d: d.find_element(By.ID, "invitation-link")).get_attribute("value")
        link = link if link.startswith("http") else BASE + link

        # Ben signs up in his own browser: settings offer to make it a device, but nothing happens unasked.
        self.sign_up(ben, f"ben_{self.suffix}")
        ben.get(f"{BASE}/settings")
        self.wait_long(ben, lambda d: self.status(d) == "This browser has no keys yet.", "Ben's settings")
        self.assertTrue(ben.find_element(By.ID, "e2e-device-setup").is_displayed())

        # He joins by the link; his browser becomes his device and waits for the keys.
        ben.get(link)
        self.press(ben, self.wait(ben, lambda d: d.find_element(By.CSS_SELECTOR, "#join-by-code button[type=submit]")))
        self.wait(ben, ec.url_contains("done=joined"))
        self.wait_long(ben, lambda d: "Waiting" in self.status(d), "Ben's browser did not wait for the keys")
        self.shot(ben, "e2e-02-ben-waits-for-keys")

        # Ana's page reconciles: it adds Ben to the group's chain and wraps him the key.
        ana.get(group_url)
        self.wait_long(ana, lambda d: self.status(d) == "This browser holds this group's keys.",
                       "Ana's page did not reconcile")
        ben.get(group_url)
        self.wait_long(ben, lambda d: self.status(d) == "This browser holds this group's keys.",
                       "Ben did not get the group's keys")

        # Ana posts a photo with a caption, for her daughter.
        ana.get(group_url)
        self.wait_long(ana, lambda d: d.find_element(By.ID, "sealed-compose").is_displayed(), "no sealed composer")
        ana.find_element(By.ID, "sealed-text").send_keys(caption)
        ana.find_element(By.ID, "sealed-photos").send_keys(self.photo)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#sealed-children input[name=child]"))
        self.shot(ana, "e2e-03-sealed-compose")
        self.press(ana, ana.find_element(By.ID, "sealed-submit"))
        post = self.wait_long(ana, lambda d: self.opened_post(d, caption), "Ana's post did not open on her page")
        self.assertIn(f"For {child}", post.text)
        self.wait_long(ana, lambda d: self.image_loaded(d, self.opened_post(d, caption)), "Ana's photo did not open")
        self.shot(ana, "e2e-04-ana-sees-her-post")
        self.no_script_errors(ana)
        # Her home feed, marked with the group, opens it too.
        ana.get(f"{BASE}/")
        self.wait_long(ana, lambda d: self.opened_post(d, caption), "the home feed did not open the post")

        # Ben sees it opened in his browser, photo and all, and comments on it, sealed.
        ben.get(group_url)
        post = self.wait_long(ben, lambda d: self.opened_post(d, caption), "Ben's browser did not open the post")
        self.assertIn(f"For {child}", post.text)
        self.wait_long(ben, lambda d: self.image_loaded(d, self.opened_post(d, caption)), "Ben's photo did not open")
        ben.execute_script("arguments[0].scrollIntoView({block: 'start'})", post)
        self.shot(ben, "e2e-05-ben-sees-the-post")
        self.check_accessibility(ben, "encrypted group page with an opened post (phone)")
        # A click swaps the thumbnail for the full photo, decrypted from its own blob.
        self.press(ben, post.find_element(By.CSS_SELECTOR, "a.photo"))
        self.wait_long(ben, lambda d: d.execute_script(
            "return arguments[0].naturalWidth", post.find_element(By.TAG_NAME, "img")) == 900,
            "the full photo did not open")
        # Kudos work as for any post.
        card = post.find_element(By.XPATH, "./ancestor::article")
        self.press(ben, card.find_element(By.CSS_SELECTOR, "button.kudos"))
        self.wait(ben, lambda d: card.find_element(By.CSS_SELECTOR, ".kudos-count").text == "1")
        post_id = post.get_attribute("data-post-id")
        ben.get(f"{BASE}/posts/{post_id}")
        form = self.wait_long(ben, lambda d: d.find_element(By.ID, "sealed-comment-form").is_displayed()
                              and d.find_element(By.ID, "sealed-comment-form"), "no sealed comment form")
        form.find_element(By.ID, "sealed-comment-text").send_keys(remark)
        self.press(ben, form.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        self.wait_long(ben, lambda d: any(remark == c.text for c in d.find_elements(
            By.CSS_SELECTOR, ".sealed-comment[data-opened=true]")), "Ben's comment did not open")
        ben.execute_script("document.getElementById('comments').scrollIntoView({block: 'start'})")
        self.shot(ben, "e2e-06-ben-commented")
        self.no_script_errors(ben)

        # Ana reads Ben's comment on her post.
        ana.get(f"{BASE}/posts/{post_id}")
        self.wait_long(ana, lambda d: any(remark == c.text for c in d.find_elements(
            By.CSS_SELECTOR, ".sealed-comment[data-opened=true]")), "Ana did not see Ben's comment")
        self.wait_long(ana, lambda d: self.image_loaded(d, self.opened_post(d, caption)), "the photo did not open")
        ana.execute_script("document.getElementById('comments').scrollIntoView({block: 'center'})")
        self.shot(ana, "e2e-07-ana-sees-the-comment")
        self.no_script_errors(ana)

        # The safety numbers page works each person's number out from their verified devices.
        ana.get(f"{BASE}{group_path}/safety")
        self.wait_long(ana, lambda d: len([n for n in d.find_elements(By.CSS_SELECTOR, ".safety-number.digits")
                                           if len(n.text.split()) == 6]) == 2, "no safety numbers")
        self.assertIn(ana_number, [n.text for n in ana.find_elements(By.CSS_SELECTOR, ".safety-number.digits")])
        self.shot(ana, "e2e-08-safety-numbers")
        self.check_accessibility(ana, "safety numbers")

        # The control: a plain group's post, which the server keeps readable, is found by the same search.
        control = f"Plain words {self.suffix}"
        ana.get(f"{BASE}/groups/new")
        ana.find_element(By.ID, "group-name").send_keys(f"Plain {self.suffix}")
        ana.find_element(By.CSS_SELECTOR, "input[name=access][value=private]").click()
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-form button[type=submit]"))
        self.wait(ana, ec.url_contains("done=created"))
        ana.find_element(By.ID, "group-note-text").send_keys(control)
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#group-note-form button[type=submit]"))
        self.wait(ana, lambda d: control in d.find_element(By.ID, "feed").text)

        self.search_the_server(caption, remark, child, control)

        # Ana makes a recovery key in settings: 24 words, shown once.
        ana.get(f"{BASE}/settings")
        setup = self.wait_long(ana, lambda d: d.find_element(By.ID, "e2e-recovery-setup").is_displayed()
                               and d.find_element(By.ID, "e2e-recovery-setup"), "no recovery key offered")
        self.press(ana, setup)
        words = self.wait_long(ana, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#e2e-recovery-words li")) == 24
                               and [li.text for li in d.find_elements(By.CSS_SELECTOR, "#e2e-recovery-words li")],
                               "no recovery words")
        ana.execute_script("document.getElementById('e2e-device').scrollIntoView({block: 'center'})")
        self.shot(ana, "e2e-09-recovery-words")
        self.no_script_errors(ana)

        # In a new browser she signs in; with the words it becomes her device and reads the family's post.
        laptop = browser()
        self.addCleanup(laptop.quit)
        laptop.get(f"{BASE}/signin")
        laptop.find_element(By.ID, "login").send_keys(f"ana_{self.suffix}")
        laptop.find_element(By.ID, "password").send_keys("correct horse battery")
        self.press(laptop, laptop.find_element(By.CSS_SELECTOR, "form[action^='/signin'] button[type=submit]"))
        self.wait(laptop, ec.presence_of_element_located((By.CSS_SELECTOR, "body[data-user-id]")))
        laptop.get(f"{BASE}/settings")
        self.wait_long(laptop, lambda d: "recovery words" in self.status(d), "no way in with the recovery words")
        laptop.find_element(By.ID, "e2e-recover-words").send_keys(" ".join(words))
        self.press(laptop, laptop.find_element(By.CSS_SELECTOR, "#e2e-recover-form button[type=submit]"))
        self.wait_long(laptop, lambda d: "device of your account (3 in all)" in self.status(d),
                       "the words did not add this browser")
        laptop.execute_script("document.getElementById('e2e-device').scrollIntoView({block: 'center'})")
        self.shot(laptop, "e2e-10-added-with-recovery-words")
        laptop.get(f"{BASE}/posts/{post_id}")
        self.wait_long(laptop, lambda d: self.image_loaded(d, self.opened_post(d, caption)),
                       "the new browser did not open the post")
        self.shot(laptop, "e2e-11-new-browser-reads-the-post")
        self.no_script_errors(laptop)

        # Ben leaves: Ana's page removes him from the group's chain and makes the next key, for her devices only.
        ben.get(group_url)
        self.press(ben, ben.find_element(By.CSS_SELECTOR, "#leave-form button[type=submit]"))
        ben.switch_to.alert.accept()
        self.wait(ben, ec.url_contains("done=left"))
        ana.get(group_url)
        self.wait_long(ana, lambda d: self.status(d) == "This browser holds this group's keys.",
                       "Ana's page did not rotate the key")
        state = self.fetch_json(ana, f"/e2e{group_path}/e2e")
        self.assertEqual((state.get("epoch"), state["rotation_due"], state["awaiting_keys"]), (1, False, []))

        # Ana deletes her post: a signed tombstone, and the server drops its ciphertext and photos.
        ana.get(f"{BASE}/posts/{post_id}")
        delete = self.wait_long(ana, lambda d: d.find_element(By.CSS_SELECTOR, ".sealed-delete").is_displayed()
                                and d.find_element(By.CSS_SELECTOR, ".sealed-delete"), "no Delete for a sealed post")
        self.press(ana, delete)
        ana.switch_to.alert.accept()
        self.wait_long(ana, lambda d: not d.find_elements(By.CSS_SELECTOR, f"article[data-post-id='{post_id}']"),
                       "the post stayed on the page")
        ana.get(f"{BASE}/posts/{post_id}")
        self.assertIn("Not found", ana.title)
        ana.get_log("browser")  # the deleted post's 404 is expected

    # --- what the server holds ------------------------------------------------------------------------------

    def search_the_server(self, caption, remark, child, control):
        self.assertTrue(DATA_DIR and os.path.isdir(DATA_DIR), "SPOTTER_DATA_DIR names no data directory")
        files = [path for path in pathlib.Path(DATA_DIR).rglob("*") if path.is_file()]
        self.assertTrue(any(path.name.endswith("-wal") for path in files), "no SQLite WAL to search")
        self.assertTrue(any("media" in path.parts for path in files), "no blob store files to search")
        photo = pathlib.Path(self.photo).read_bytes()
        chunk = photo[len(photo) // 2: len(photo) // 2 + 64]
        self.assertEqual(photo.count(chunk), 1)

        def holding(needle):
            return [str(path) for path in files if needle in path.read_bytes()]

        # The control first: what the server was given in the clear, it holds, and this search finds.
        self.assertTrue(holding(control.encode()), "the search did not find a plain post: it proves nothing")
        for what, needle in (("caption", caption.encode()), ("comment", remark.encode()), ("photo bytes", chunk),
                             ("caption (UTF-16)", caption.encode("utf-16-le"))):
            self.assertEqual(holding(needle), [], f"the server's files hold the {what}")
        blob_files = [path for path in files if "media" in path.parts]
        for what, needle in (("child's name", child.encode()),):
            self.assertEqual([p for p in blob_files if needle in p.read_bytes()], [], f"a blob holds the {what}")
        self.assertEqual(self.tables_holding(child), [("children", "name")],
                         "the child's name is somewhere beside their own profile")

    def tables_holding(self, text):
        """(table, column) of every row in the database whose text or bytes contain `text`."""
        databases = [p for p in pathlib.Path(DATA_DIR).rglob("*") if p.is_file() and self.is_sqlite(p)]
        self.assertTrue(databases, "no SQLite database in the data directory")
        found = []
        for database in databases:
            connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            try:
                tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                for table in tables:
                    columns = [row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')]
                    for column in columns:
                        query = f'SELECT count(*) FROM "{table}" WHERE instr(CAST("{column}" AS BLOB), ?) > 0'
                        if connection.execute(query, (text.encode(),)).fetchone()[0]:
                            found.append((table, column))
            finally:
                connection.close()
        return found

    @staticmethod
    def is_sqlite(path):
        with open(path, "rb") as file:
            return file.read(16) == b"SQLite format 3\x00"


if __name__ == "__main__":
    unittest.main()
