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

// New group: "Encrypted" allows only Private, so ticking it chooses Private where the person sees it and greys
// out the others; without script the server refuses another choice and says why. Nothing changes unseen.
(function () {
  const encrypted = document.getElementById("group-encrypted");
  if (!encrypted) return;
  const choices = Array.from(document.querySelectorAll('#group-form input[name="access"]'));
  function follow() {
    for (const choice of choices) {
      if (encrypted.checked && choice.value === "private") choice.checked = true;
      choice.disabled = encrypted.checked && choice.value !== "private";
    }
  }
  encrypted.addEventListener("change", follow);
  follow();
})();

// A group's page: the member has seen its newest posts now, so the page tells the server with the POST of its
// seen form (a GET changes nothing: a link preview or a prefetch marks nothing seen). Without script, the form's
// "Mark as seen" button does the same.
(function () {
  const form = document.getElementById("seen-form");
  if (!form) return;
  form.hidden = true;
  fetch(form.action, {
    method: "POST",
    headers: { Accept: "application/json" },
    body: new URLSearchParams(new FormData(form)),
    credentials: "same-origin",
    keepalive: true, // sent even when the person leaves the page at once
  }).catch(() => { form.hidden = false; });
})();
