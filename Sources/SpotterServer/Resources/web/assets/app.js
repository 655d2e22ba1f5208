// Spotter's web app: small progressive enhancements over server-rendered pages. Every feature here has a
// plain HTML fallback (forms post, links load pages); this file makes them instant and live. No build step.
"use strict";

(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const body = document.body;

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

  // ---- Workout builder: add exercises and sets; field names stay the ones the server reads. ----
  const builder = document.getElementById("exercises");
  if (builder) {
    builder.addEventListener("click", (event) => {
      const button = event.target.closest(".add-set");
      if (!button) return;
      const exercise = button.closest(".exercise");
      const rows = exercise.querySelectorAll("tbody tr");
      const last = rows[rows.length - 1];
      const row = last.cloneNode(true);
      row.querySelectorAll('input[type="number"]').forEach((input, i) => {
        input.value = last.querySelectorAll('input[type="number"]')[i].value; // sets often repeat
      });
      exercise.querySelector("tbody").appendChild(row);
      renumber();
      row.querySelector('input[name="set_weight"]').focus();
    });
    document.getElementById("add-exercise").addEventListener("click", () => {
      const exercises = builder.querySelectorAll(".exercise");
      const copy = exercises[exercises.length - 1].cloneNode(true);
      copy.querySelectorAll("tbody tr").forEach((row, i) => { if (i > 0) row.remove(); });
      copy.querySelectorAll("input").forEach((input) => { if (input.type !== "hidden") input.value = ""; });
      builder.appendChild(copy);
      renumber();
      copy.querySelector('input[name="exercise_name"]').focus();
    });
  }

  function renumber() {
    builder.querySelectorAll(".exercise").forEach((exercise, e) => {
      exercise.dataset.index = String(e);
      const name = exercise.querySelector('input[name="exercise_name"]');
      name.id = `exercise-${e}`;
      exercise.querySelector("label").setAttribute("for", name.id);
      exercise.querySelector("label").textContent = `Exercise ${e + 1}`;
      exercise.querySelectorAll("tbody tr").forEach((row, s) => {
        row.cells[0].firstChild.textContent = String(s + 1);
        row.querySelector('input[name="set_exercise"]').value = String(e);
        row.querySelector('input[name="set_weight"]').setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, weight in kilograms`);
        row.querySelector('input[name="set_reps"]').setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, reps`);
      });
    });
  }

  // ---- Live: the Phoenix Channels v2 socket (see docs/realtime.md). ----
  const userID = body.dataset.userId;
  let token = body.dataset.socketToken;
  if (!userID || !token) return;

  const status = document.getElementById("connection-status");
  const liveTopic = document.querySelector("[data-live-topic]")?.dataset.liveTopic;
  const newPostsBar = document.getElementById("new-posts");
  const freshPosts = new Set();
  let socket = null;
  let ref = 0;
  let heartbeat = null;
  let attempts = 0;
  let connectedBefore = false;
  // The newest post this page knows on its live topic: a rejoin asks for what came after it, so a dropped
  // socket resumes without gaps (see "Resuming without gaps" in docs/realtime.md).
  let newestPostID = liveTopic ? document.querySelector("#feed [data-post-id]")?.dataset.postId : undefined;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const encoded = btoa(token).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    // The token travels as a subprotocol, not in the URL, so it stays out of access logs.
    socket = new WebSocket(`${scheme}//${location.host}/socket/websocket?vsn=2.0.0`,
      ["phoenix", `base64url.bearer.phx.${encoded}`]);
    socket.addEventListener("open", () => {
      attempts = 0;
      status.hidden = true;
      body.dataset.live = "online";
      join(`user:${userID}`);
      if (liveTopic) join(liveTopic, connectedBefore && newestPostID ? { since: cursorAt(newestPostID) } : {});
      connectedBefore = true;
      heartbeat = setInterval(() => send(null, "phoenix", "heartbeat", {}), 30000);
    });
    socket.addEventListener("message", (message) => {
      const [, , topic, event, payload] = JSON.parse(message.data);
      handle(topic, event, payload);
    });
    socket.addEventListener("close", () => {
      clearInterval(heartbeat);
      status.hidden = false;
      body.dataset.live = "offline";
      attempts += 1;
      setTimeout(reconnect, Math.min(30000, 1000 * 2 ** Math.min(attempts, 5)));
    });
  }

  // The page's token lives 15 minutes; a reconnect asks for a fresh one with the session cookie.
  async function reconnect() {
    try {
      const response = await fetch("/session/socket-token", { credentials: "same-origin" });
      if (response.ok) token = (await response.json()).token;
    } catch { /* still offline: try the old token, the close handler schedules the next attempt */ }
    connect();
  }

  function join(topic, payload = {}) {
    ref += 1;
    socket.send(JSON.stringify([String(ref), String(ref), topic, "phx_join", payload]));
  }

  // A feed cursor as the server makes them: base64url of "c1:" and the post's id.
  function cursorAt(id) {
    return btoa(`c1:${id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function announce(id) {
    if (!newPostsBar || document.querySelector(`[data-post-id="${CSS.escape(id)}"]`)) return;
    freshPosts.add(id);
    newPostsBar.textContent = freshPosts.size === 1 ? "1 new post" : `${freshPosts.size} new posts`;
    newPostsBar.hidden = false;
  }

  function send(joinRef, topic, event, payload) {
    ref += 1;
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify([joinRef, String(ref), topic, event, payload]));
  }

  function handle(topic, event, payload) {
    switch (event) {
      case "unread_count": {
        const badge = document.getElementById("unread-badge");
        // Counts stop at 100 (NotificationCounts.limit); the page's own badge writes that as 99+ too.
        badge.textContent = payload.unread >= 100 ? "99+" : String(payload.unread);
        badge.hidden = payload.unread === 0;
        break;
      }
      case "new_post":
        if (topic !== liveTopic) break;
        newestPostID = payload.id;
        announce(payload.id);
        break;
      case "phx_reply": {
        // A rejoin's reply carries what was posted while the socket was down, or asks for a reload.
        const response = topic === liveTopic ? payload.response || {} : {};
        for (const post of response.missed || []) {
          newestPostID = post.id;
          announce(post.id);
        }
        if (response.reset && newPostsBar) {
          newPostsBar.textContent = "New posts: reload";
          newPostsBar.hidden = false;
        }
        break;
      }
      case "post_likes_updated":
        document.querySelectorAll(`[data-post-id="${CSS.escape(payload.id)}"] .kudos-count`)
          .forEach((node) => { node.textContent = String(payload.likes_count); });
        break;
      case "post_comments_updated":
        document.querySelectorAll(`[data-post-id="${CSS.escape(payload.id)}"] .comments-count`)
          .forEach((node) => { node.textContent = String(payload.comments_count); });
        break;
      case "post_deleted":
        document.querySelectorAll(`[data-post-id="${CSS.escape(payload.id)}"]`).forEach((node) => node.remove());
        break;
    }
  }

  newPostsBar?.addEventListener("click", () => location.reload());
  connect();
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

// ---- Choosing a template loads it into the builder at once (the "Use" button does the same without script). ----
document.getElementById("template")?.addEventListener("change", (event) => event.target.form.submit());
