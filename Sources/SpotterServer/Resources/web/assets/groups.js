// Groups: "Copy link" puts a new invitation link on the clipboard. Without script (or without clipboard
// access) the link stays in its field, selected, to copy by hand.
"use strict";

(function () {
  document.querySelectorAll("[data-copy]").forEach((button) => {
    const field = document.getElementById(button.dataset.copy);
    const status = document.getElementById("copy-status");
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", async () => {
      // The server may give the link as a path (no public address configured): copy it whole.
      const link = new URL(field.value, location.href).href;
      try {
        await navigator.clipboard.writeText(link);
        if (status) status.textContent = "Link copied.";
        button.textContent = "Copied";
      } catch {
        field.focus();
        field.select();
        if (status) status.textContent = "Copying was refused: the link is selected, copy it with your keyboard.";
      }
    });
  });
})();
