// The live page: the Phoenix Channels v2 socket (see docs/realtime.md) for the unread badge, new posts on the
// open feed, and counts on the posts shown. Without script, pages are simply not live.
"use strict";

(function () {
  const body = document.body;
  const userID = body.dataset.userId;
  let token = body.dataset.socketToken;
  if (!userID || !token) return;

  const status = document.getElementById("connection-status");
  const liveFeed = document.querySelector("[data-live-topic]");
  const liveTopic = liveFeed?.dataset.liveTopic;
  // A group's page shows new posts in place (`data-live-insert`); the feeds count them in "N new posts".
  const insertsPosts = liveFeed?.hasAttribute("data-live-insert");
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
        // The badge counts unseen notifications, as the page's own does (opening the inbox sees them all).
        // Counts stop at 100 (NotificationCounts.limit); the page's own badge writes that as 99+ too.
        badge.textContent = payload.unseen >= 100 ? "99+" : String(payload.unseen);
        badge.hidden = payload.unseen === 0;
        break;
      }
      case "new_post":
        if (topic !== liveTopic) break;
        newestPostID = payload.id;
        insertsPosts ? insertPost(payload.id) : announce(payload.id);
        break;
      case "phx_reply": {
        // A rejoin's reply carries what was posted while the socket was down, or asks for a reload.
        const response = topic === liveTopic ? payload.response || {} : {};
        for (const post of response.missed || []) {
          newestPostID = post.id;
          insertsPosts ? insertPost(post.id) : announce(post.id);
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
          .forEach((node) => { node.textContent = plural(payload.comments_count, node.dataset.singular, node.dataset.plural); });
        if (topic === liveTopic && topic === `post:${payload.id}`) refreshComments();
        break;
      case "post_updated":
        refreshPost(payload.id);
        break;
      case "post_deleted":
        document.querySelectorAll(`[data-post-id="${CSS.escape(payload.id)}"]`).forEach((node) => node.remove());
        break;
    }
  }

  function plural(count, singular, pluralForm) {
    if (!singular) return String(count);
    return `${count} ${count === 1 ? singular : pluralForm || `${singular}s`}`;
  }

  // Comments and edited posts come as HTML the server renders for this viewer, fetched when the socket says
  // something changed: the event carries only ids and counts, so what shows live is what a reload would show
  // (blocked people's comments stay out), and no comment text travels to people who may not read it.
  let commentsPending = false;
  async function refreshComments() {
    const list = document.getElementById("comment-list");
    if (!list) return;
    // A reply being typed would be wiped by the new list: wait until it is sent or emptied.
    const typing = [...list.querySelectorAll("textarea")].some((field) => field.value.trim() !== "");
    if (typing) { commentsPending = true; return; }
    commentsPending = false;
    try {
      const response = await fetch(list.dataset.commentsSrc, { credentials: "same-origin" });
      if (!response.ok) return;
      const open = [...list.querySelectorAll("details[open]")].map((node) => node.closest("[data-comment-id]")?.dataset.commentId);
      const template = document.createElement("template");
      template.innerHTML = (await response.text()).trim();
      const fresh = template.content.firstElementChild;
      if (!fresh) return;
      open.forEach((id) => fresh.querySelector(`[data-comment-id="${CSS.escape(id || "")}"] details`)?.setAttribute("open", ""));
      list.replaceWith(fresh);
    } catch { /* offline: the next event or a reload brings the list */ }
  }
  document.addEventListener("input", (event) => {
    if (commentsPending && event.target.closest("#comment-list") && event.target.value.trim() === "") refreshComments();
  });

  // A new post shown in place: its card as the server renders it for this viewer, newest on top.
  async function insertPost(id) {
    if (document.querySelector(`[data-post-id="${CSS.escape(id)}"]`)) return;
    try {
      const response = await fetch(`/posts/${encodeURIComponent(id)}?fragment=1`, { credentials: "same-origin" });
      if (!response.ok || document.querySelector(`[data-post-id="${CSS.escape(id)}"]`)) return;
      const template = document.createElement("template");
      template.innerHTML = (await response.text()).trim();
      const card = template.content.firstElementChild;
      if (!card) return;
      liveFeed.querySelector(".empty")?.remove();
      liveFeed.prepend(card);
    } catch { /* offline: the rejoin's missed posts bring it */ }
  }

  async function refreshPost(id) {
    const cards = document.querySelectorAll(`article[data-post-id="${CSS.escape(id)}"]`);
    if (cards.length === 0) return;
    try {
      const response = await fetch(`/posts/${encodeURIComponent(id)}?fragment=1`, { credentials: "same-origin" });
      // Edited out of this viewer's sight (made private, say): it goes, as a deleted post does.
      if (response.status === 404) cards.forEach((card) => card.remove());
      if (!response.ok) return;
      const html = (await response.text()).trim();
      cards.forEach((card) => {
        const template = document.createElement("template");
        template.innerHTML = html;
        if (template.content.firstElementChild) card.replaceWith(template.content.firstElementChild);
      });
    } catch { /* offline: a reload shows the edit */ }
  }

  newPostsBar?.addEventListener("click", () => location.reload());
  connect();
})();
