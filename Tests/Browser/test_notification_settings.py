"""Notification settings in a real browser: every choice fits its box (no select narrower than its widest
choice, as when they were held to 192 px; nothing past the card; no sideways scroll) on a desktop, a phone and
the narrowest phones; the choices say what differs; follow requests offer no Off, which the server would not
honour.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import BASE, BrowserStory

# What overflows in the notifications form, measured in the page: a type's select narrower than its widest
# choice (a copy of it, free of every width rule, says how wide that is), a select or text past the card's
# edge, text cut inside its own box, and settings wider than the screen.
OVERFLOWS = """
const form = document.getElementById("notifications-form");
const card = form.closest(".card").getBoundingClientRect();
const problems = [];
for (const select of form.querySelectorAll(".settings-table select")) {
  const copy = select.cloneNode(true);
  copy.removeAttribute("id");
  copy.style.cssText = "position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none";
  select.parentNode.appendChild(copy);
  const needed = copy.getBoundingClientRect().width;
  copy.remove();
  const box = select.getBoundingClientRect();
  if (box.width + 0.5 < needed) problems.push(`${select.id} is ${box.width}px for choices of ${needed}px`);
  if (box.left < card.left - 0.5 || box.right > card.right + 0.5) problems.push(`${select.id} leaves the card`);
}
for (const text of form.querySelectorAll("label, legend, th, p, small")) {
  const box = text.getBoundingClientRect();
  if (box.width === 0) continue;
  if (text.scrollWidth > text.clientWidth + 1) problems.push(`"${text.textContent.trim()}" is cut`);
  if (box.right > card.right + 0.5) problems.push(`"${text.textContent.trim()}" leaves the card`);
}
// (The header's own width is the phone header's story, test_account's.)
if (card.right > document.documentElement.clientWidth + 0.5 || form.scrollWidth > form.clientWidth + 1) {
  problems.push(`the settings leave the screen (${card.right} > ${document.documentElement.clientWidth})`);
}
return problems;
"""


class NotificationSettingsStory(BrowserStory):
    def open_settings(self, driver, name):
        self.sign_up(driver, name)
        driver.get(f"{BASE}/settings")
        form = driver.find_element(By.ID, "notifications-form")
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", form)
        return form

    def test_every_choice_fits_and_says_what_it_does(self):
        # Ana on a desktop: every choice fits its select, and nothing leaves the card.
        self.open_settings(self.ana, f"ana_{self.suffix}")
        self.assertEqual(self.ana.execute_script(OVERFLOWS), [], "on a desktop")
        self.shot(self.ana, "notification-settings-01-desktop")

        # Each choice of a type says something the others don't.
        kudos = Select(self.ana.find_element(By.ID, "type_kudos"))
        labels = [option.text for option in kudos.options]
        self.assertEqual(len(labels), len(set(labels)))
        # Past the cap a kudos waits whichever way it is pushed, so "every time" is not offered for it
        # (the seed's shouldBatch); a mention, which never waits, offers it.
        self.assertNotIn("Right away, every time", labels)
        self.assertIn("Up to 10 an hour", labels)
        mentions = Select(self.ana.find_element(By.ID, "type_mention"))
        self.assertIn("Right away, every time", [option.text for option in mentions.options])
        self.assertIn("Grouped every 15 min", labels)

        # Follow requests can't be off (the server refuses it): no Off to pick, and the help says why.
        requests = Select(self.ana.find_element(By.ID, "type_follow_request"))
        self.assertNotIn("disabled", [option.get_attribute("value") for option in requests.options])
        self.assertEqual(requests.first_selected_option.get_attribute("value"), "immediate")
        self.assertIn("Follow requests always reach your inbox", self.ana.find_element(By.ID, "notifications-form").text)

        # Saving the page as it is keeps everything (no choice it doesn't offer is sent back).
        self.ana.find_element(By.CSS_SELECTOR, "#notifications-form button[type=submit]").click()
        self.wait(self.ana, lambda d: d.find_elements(By.ID, "saved-notice"), "saving did not say it saved")
        self.assertEqual(Select(self.ana.find_element(By.ID, "type_follow_request")).first_selected_option
                         .get_attribute("value"), "immediate")

        # On phones (412 px, and the narrowest at 360 and 320: Chromium's windows are at least 500 px wide, so
        # the page is shown at these widths as a phone shows it): the same holds, each choice below its label.
        self.open_settings(self.bo, f"bo_{self.suffix}")
        for width in (412, 360, 320):
            self.bo.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})
            self.bo.execute_script("document.getElementById('notifications-form').scrollIntoView({block: 'start'})")
            self.assertEqual(self.bo.execute_script("return window.innerWidth"), width)
            self.assertEqual(self.bo.execute_script(OVERFLOWS), [], f"at {width} px")
            self.shot(self.bo, f"notification-settings-02-{width}px")
        self.check_accessibility(self.bo, "notification settings on a phone")

if __name__ == "__main__":
    unittest.main()
