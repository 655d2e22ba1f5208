"""Photos in a real browser: Ana picks a photo in the composer, describes it, sees its upload finish, posts it,
and sees it in her feed (its BlurHash placeholder, then the photo) with its alt text; she opens it in the
lightbox and closes it with Escape; she sets an avatar in settings and sees it in the top bar and on her post.
Bo, on a phone-sized window, sees her post with its photo and avatar, and sets his own avatar. axe runs on every
page; screenshots go to .test-artifacts/.

The JPEGs are drawn at test time with Pillow (drawn_photos.py; no binary fixtures in git).

Run through scripts/browser-test, which starts the server and sets SPOTTER_BASE_URL and SPOTTER_ARTIFACTS.
"""

import tempfile
import unittest

import blurhash
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec

from browser_support import BASE, BrowserStory
from drawn_photos import gradient_jpeg


class PhotosStory(BrowserStory):
    def setUp(self):
        super().setUp()
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.photo = gradient_jpeg(folder.name, "track.jpg", (1200, 800), "orange", "navy")
        self.face = gradient_jpeg(folder.name, "face.jpg", (400, 400), "teal", "gold")

    def press(self, driver, element):
        """Clicks after bringing the element to the middle of the window, clear of the pinned header."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def loaded(self, driver, image):
        """Whether an <img> has loaded real pixels."""
        return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)

    def set_avatar(self, driver, shot_name):
        driver.get(f"{BASE}/settings")
        self.check_accessibility(driver, "settings")
        driver.find_element(By.ID, "avatar-photo").send_keys(self.face)
        self.wait(driver, ec.presence_of_element_located((By.CSS_SELECTOR, "#avatar-photos .photo-item[data-media-id]")),
                  "the avatar upload did not finish")
        self.shot(driver, shot_name)
        self.check_accessibility(driver, "settings (avatar chosen)")
        self.press(driver, driver.find_element(By.CSS_SELECTOR, "#avatar-form button[type=submit]"))
        self.wait(driver, ec.url_contains("saved=avatar"), "saving the avatar did not come back saved")

    def test_photo_post_lightbox_and_avatars(self):
        ana, bo = self.ana, self.bo
        self.sign_up(ana, f"ana_{self.suffix}")

        # Ana picks a photo for a note: it uploads at once, with a progress bar, and shows its preview.
        ana.get(f"{BASE}/compose")
        self.check_accessibility(ana, "compose")
        ana.find_element(By.ID, "note-photo").send_keys(self.photo)
        item = self.wait(ana, lambda d: d.find_element(By.CSS_SELECTOR, "#note-photos .photo-item"))
        self.assertIsNotNone(item.find_element(By.TAG_NAME, "progress"))
        self.wait(ana, lambda d: d.find_element(By.CSS_SELECTOR, "#note-photos .photo-item[data-media-id]"),
                  "the photo did not finish uploading and processing")
        thumb = item.find_element(By.CSS_SELECTOR, "img.photo-thumb")
        self.wait(ana, lambda d: self.loaded(d, thumb), "the preview did not show")
        # She describes it, for people who can't see it, and writes her note.
        alt = item.find_element(By.TAG_NAME, "textarea")
        label = ana.find_element(By.CSS_SELECTOR, f"label[for='{alt.get_attribute('id')}']")
        self.assertEqual(label.text, "Describe the photo for people who can't see it")
        alt.send_keys("Sunrise over the running track")
        ana.find_element(By.ID, "note-text").send_keys("Early start #run")
        self.shot(ana, "photos-01-composer")
        self.check_accessibility(ana, "compose (photo chosen)")
        self.press(ana, ana.find_element(By.CSS_SELECTOR, "#note-form button[type=submit]"))
        self.wait(ana, ec.url_contains("/feed/following"))

        # In her feed: the photo with its alt text, its placeholder painted, then the photo itself.
        post = ana.find_element(By.CSS_SELECTOR, "#feed article.post")
        image = post.find_element(By.CSS_SELECTOR, ".photos img")
        self.assertEqual(image.get_attribute("alt"), "Sunrise over the running track")
        self.assertEqual(image.get_attribute("loading"), "lazy")
        self.assertIn("400w", image.get_attribute("srcset"))
        self.wait(ana, lambda d: "data:image/png" in image.value_of_css_property("background-image"),
                  "the BlurHash placeholder was not painted")
        self.wait(ana, lambda d: self.loaded(d, image), "the photo did not load")
        # The page's BlurHash decoder (hand-written in photos.js) agrees with the Python package's, pixel by pixel.
        hash_ = image.get_attribute("data-blurhash")
        ours = ana.execute_script("return Array.from(BlurHash.decode(arguments[0], 12, 8))", hash_)
        theirs = [channel for row in blurhash.decode(hash_, 12, 8) for pixel in row for channel in (*pixel, 255)]
        self.assertEqual(len(ours), len(theirs))
        self.assertLessEqual(max(abs(a - b) for a, b in zip(ours, theirs)), 1, "BlurHash decodes differ")
        self.shot(ana, "photos-02-feed")
        self.check_accessibility(ana, "feed with a photo")
        post_id = post.get_attribute("data-post-id")

        # The lightbox: a click opens the large photo with its description; Escape closes it, focus returns.
        link = post.find_element(By.CSS_SELECTOR, "a[data-lightbox]")
        self.press(ana, link)
        dialog = self.wait(ana, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.lightbox[open]"))
        large = dialog.find_element(By.TAG_NAME, "img")
        self.wait(ana, lambda d: self.loaded(d, large), "the large photo did not load")
        self.assertEqual(dialog.find_element(By.TAG_NAME, "figcaption").text, "Sunrise over the running track")
        self.shot(ana, "photos-03-lightbox")
        self.check_accessibility(ana, "lightbox")
        ana.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait(ana, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.lightbox[open]"),
                  "Escape did not close the lightbox")
        self.assertEqual(ana.switch_to.active_element, link, "focus did not return to the photo")

        # Her avatar: set in settings, shown in the top bar and on her post.
        self.set_avatar(ana, "photos-04-settings-avatar")
        header_avatar = ana.find_element(By.CSS_SELECTOR, ".me-link img.avatar")
        self.wait(ana, lambda d: self.loaded(d, header_avatar), "the top bar's avatar did not load")
        ana.get(f"{BASE}/posts/{post_id}")
        card_avatar = ana.find_element(By.CSS_SELECTOR, "article.post .post-head img.avatar")
        self.wait(ana, lambda d: self.loaded(d, card_avatar), "the post's avatar did not load")
        self.shot(ana, "photos-05-post-with-avatar")
        self.check_accessibility(ana, "post page with photo and avatar")
        # Editing the post shows its photo with a position and a Remove box.
        ana.get(f"{BASE}/posts/{post_id}/edit")
        self.assertTrue(ana.find_elements(By.CSS_SELECTOR, "#edit-form input[name=media_remove]"))
        self.shot(ana, "photos-06-edit")
        self.check_accessibility(ana, "edit a post with a photo")
        self.no_script_errors(ana)

        # Bo, on a phone: Ana's post shows its photo full width and her avatar; his own avatar is in his menu.
        self.sign_up(bo, f"bo_{self.suffix}")
        bo.get(f"{BASE}/posts/{post_id}")
        photo = bo.find_element(By.CSS_SELECTOR, ".photos img")
        self.wait(bo, lambda d: self.loaded(d, photo), "the photo did not load on the phone")
        self.assertEqual(photo.get_attribute("alt"), "Sunrise over the running track")
        width, viewport, page = bo.execute_script(
            "return [arguments[0].getBoundingClientRect().right, document.documentElement.clientWidth,"
            " document.documentElement.scrollWidth]", photo)
        self.assertLessEqual(width, viewport, "the photo overflows the phone's width")
        self.assertLessEqual(page, viewport, "the page scrolls sideways on a phone")
        self.assertTrue(bo.find_elements(By.CSS_SELECTOR, "article.post .post-head img.avatar"))
        self.shot(bo, "photos-07-phone-post")
        self.check_accessibility(bo, "post page on a phone")
        self.set_avatar(bo, "photos-08-phone-settings-avatar")
        menu_avatar = bo.find_element(By.CSS_SELECTOR, ".menu summary img.avatar")
        self.wait(bo, lambda d: self.loaded(d, menu_avatar), "the menu's avatar did not load on the phone")
        self.shot(bo, "photos-09-phone-avatar")
        self.no_script_errors(bo)


if __name__ == "__main__":
    unittest.main()
