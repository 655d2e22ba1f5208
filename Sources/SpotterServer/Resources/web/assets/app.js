// Spotter's web app: small progressive enhancements over server-rendered pages. Every feature here has a
// plain HTML fallback (forms post, links load pages); this file makes them instant and live. No build step.
"use strict";

(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";

  // ---- Kudos: count changes at once, the server confirms, a refusal puts it back and says why. ----
  document.addEventListener("submit", async (event) => {
    const form = event.target.closest(".kudos-form");
    if (!form) return;
    event.preventDefault();
    const article = form.closest("[data-post-id]");
    const button = form.querySelector("button");
    const onField = form.querySelector('input[name="on"]');
    const count = button.querySelector(".kudos-count");
    const giving = onField.value === "true";
    const before = { count: count.textContent, pressed: button.getAttribute("aria-pressed") };
    setKudos(form, giving, Number(count.textContent) + (giving ? 1 : -1));
    showError(article, "");
    try {
      const response = await fetch(form.action, {
        method: "POST",
        headers: { "X-CSRF-Token": csrf, "Accept": "application/json",
                   "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ on: String(giving) }),
        credentials: "same-origin",
      });
      if (response.redirected && new URL(response.url).pathname === "/signin") {
        location.href = "/signin"; // signed out: kudos need an account
        return;
      }
      if (!response.ok) throw new Error(response.status === 403 ? "Not allowed: reload the page and try again."
        : response.status === 404 ? "This post is gone." : "Kudos didn't go through; try again.");
      const state = await response.json();
      setKudos(form, state.kudosed_by_me, state.kudos_count);
    } catch (error) {
      count.textContent = before.count;
      setKudos(form, before.pressed === "true", Number(before.count));
      showError(article, error instanceof TypeError ? "You seem to be offline; kudos not sent." : error.message);
    }
  });

  function setKudos(form, on, total) {
    const button = form.querySelector("button");
    button.classList.toggle("on", on);
    button.setAttribute("aria-pressed", String(on));
    form.querySelector('input[name="on"]').value = String(!on);
    form.querySelectorAll(".kudos-count").forEach((node) => { node.textContent = String(Math.max(0, total)); });
  }

  function showError(article, message) {
    const slot = article?.querySelector(".action-error");
    if (!slot) return;
    slot.textContent = message;
    slot.hidden = !message;
  }

  // ---- Load more: fetch the next page's items and append them in place. ----
  document.addEventListener("click", async (event) => {
    const link = event.target.closest("a.load-more");
    if (!link) return;
    event.preventDefault();
    link.textContent = "Loading…";
    const url = new URL(link.href);
    url.searchParams.set("fragment", "1");
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const holder = link.closest(".more");
      holder.insertAdjacentHTML("afterend", await response.text());
      holder.remove();
    } catch {
      link.textContent = "Load more (failed, try again)";
    }
  });
})();

// ---- Search as you type: wait for a pause (300 ms), then swap in just the results. ----
(function () {
  const input = document.querySelector("[data-live-search]");
  if (!input) return;
  let timer = null;
  let latest = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const query = input.value.trim();
      const asked = ++latest;
      const url = `/search?q=${encodeURIComponent(query)}&fragment=1`;
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok || asked !== latest) return; // a newer query already answered
        document.getElementById("search-results").outerHTML = await response.text();
        history.replaceState(null, "", query ? `/search?q=${encodeURIComponent(query)}` : "/search");
      } catch { /* offline: the form still submits */ }
    }, 300);
  });
})();


// ---- People: a form with data-confirm (Block) asks first; without script it posts at once. ----
document.addEventListener("submit", (event) => {
  const message = event.target.closest?.("form[data-confirm]")?.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
