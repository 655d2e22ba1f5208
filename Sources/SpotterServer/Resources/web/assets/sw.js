// Spotter's service worker, served at /sw.js so that its scope is the whole site (WebAssets.swift). It only shows
// Web Push notifications and opens them: no fetch handler, so pages load as they would without it.
//   push: the server's payload (WebPushChannel), JSON {"title", "body", "badge", "tag", "url"}, decrypted by the
//     browser; shown as a notification whose tag is the payload's, so a newer batch replaces the older one.
//   notificationclick: focuses an open Spotter tab and takes it to the notification's route, or opens one there.
//     Only a path on this site is followed ("/posts/<id>"); anything else opens the inbox.
"use strict";

const INBOX = "/notifications";

self.addEventListener("install", () => self.skipWaiting());
// Take the open pages at once, so a click can send them to the route (WindowClient.navigate needs that).
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/// The payload as JSON; a payload that isn't (or none, as a push service may send) still shows something.
function readPayload(data) {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload && typeof payload === "object" ? payload : {};
  } catch {
    return { body: data.text() };
  }
}

/// The route a notification opens: a path on this site, else the inbox. A URL elsewhere, `//host` and `/\host`
/// (which URLs read as another host) all fall back.
function routeOf(url) {
  if (typeof url !== "string" || !url.startsWith("/")) return INBOX;
  let resolved;
  try {
    resolved = new URL(url, self.location.origin);
  } catch {
    return INBOX;
  }
  if (resolved.origin !== self.location.origin) return INBOX;
  return resolved.pathname + resolved.search + resolved.hash;
}

function showPush(payload) {
  const options = {
    body: typeof payload.body === "string" ? payload.body : "",
    icon: "/assets/icon.svg",
    data: { url: routeOf(payload.url) },
  };
  if (typeof payload.tag === "string" && payload.tag) options.tag = payload.tag;
  const title = typeof payload.title === "string" && payload.title ? payload.title : "Spotter";
  const shown = [self.registration.showNotification(title, options)];
  // The unread count, on an installed app's icon where the browser has one.
  const badge = Number.parseInt(payload.badge, 10);
  if (Number.isInteger(badge) && badge >= 0 && self.navigator.setAppBadge) {
    shown.push(self.navigator.setAppBadge(badge).catch(() => undefined));
  }
  return Promise.all(shown);
}

/// Brings a Spotter tab to `route`: the one already there, else the first open one, else a new window.
async function openRoute(route) {
  const target = new URL(route, self.location.origin).href;
  const tabs = await self.clients.matchAll({ type: "window" });
  const there = tabs.find((tab) => tab.url === target);
  if (there) return there.focus();
  for (const tab of tabs) {
    try {
      const focused = await tab.focus();
      return await focused.navigate(target);
    } catch {
      // Gone or not ours to steer: try the next, and at the end a window of our own.
    }
  }
  return self.clients.openWindow(target);
}

self.addEventListener("push", (event) => event.waitUntil(showPush(readPayload(event.data))));

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openRoute(routeOf(event.notification.data && event.notification.data.url)));
});
