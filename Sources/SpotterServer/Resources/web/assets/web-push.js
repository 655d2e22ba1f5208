// Settings → Notifications, "This browser": subscribes this browser to Web Push and unsubscribes it.
// Shown only where the browser has service workers and the Push API, and the server a VAPID key (the section's
// data-vapid-key); without script the section stays hidden. Subscribing asks for notification permission,
// registers /sw.js (which shows the pushes and opens them), subscribes with the server's key and hands the
// subscription to POST /settings/web-push; unsubscribing tells the server first (POST /settings/web-push/unsubscribe),
// then the browser. What happens is said in #web-push-status, a role=status region.
// On every page, signing out unsubscribes this browser first: its pushes are the account's, not the next person's.
"use strict";

(function () {
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  // How long the browser's push service may take to answer a subscription before we say it can't be reached;
  // one that answers later still counts (see subscribeHere).
  const PUSH_SERVICE_WAIT_MS = 15000;

  const MESSAGES = {
    on: "This browser is subscribed: your notifications come here too.",
    onButPushOff: "This browser is subscribed, but pushes are off: tick “Push to my devices” above and save.",
    off: "This browser isn't subscribed.",
    asking: "Asking your browser…",
    denied: "Your browser blocks notifications from Spotter. Allow them in this site's settings, then subscribe again.",
    unreachable: "Your browser's push service can't be reached, so this browser can't be subscribed now. "
      + "Check the connection and try again later.",
    refused: "The server didn't take this browser's subscription: ",
    unsubscribed: "This browser is unsubscribed: notifications no longer come here.",
    notUnsubscribed: "This browser couldn't be unsubscribed: ",
  };

  /// A JSON call to /settings/web-push…; a refusal throws with the problem's detail. 404 on unsubscribe is
  /// "already forgotten", which is what was asked.
  async function post(path, body) {
    const response = await fetch("/settings/web-push" + path, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf },
    });
    if (response.ok || (path === "/unsubscribe" && response.status === 404)) return;
    let problem = null;
    try {
      problem = await response.json();
    } catch {
      problem = null;
    }
    throw new Error((problem && (problem.detail || problem.title)) || `The server refused (${response.status}).`);
  }

  /// The server's key as the bytes `applicationServerKey` takes.
  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  function register(subscription) {
    const json = subscription.toJSON();
    return post("", { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } });
  }

  function setUp(section) {
    const status = section.querySelector("#web-push-status");
    const subscribeButton = section.querySelector("#web-push-subscribe");
    const unsubscribeButton = section.querySelector("#web-push-unsubscribe");
    const pushOn = section.dataset.pushOn === "true";

    function show(subscribed, message) {
      subscribeButton.hidden = subscribed;
      unsubscribeButton.hidden = !subscribed;
      section.dataset.state = subscribed ? "subscribed" : "unsubscribed";
      status.textContent = message || (subscribed ? (pushOn ? MESSAGES.on : MESSAGES.onButPushOff) : MESSAGES.off);
    }

    function busy(yes) {
      subscribeButton.disabled = unsubscribeButton.disabled = yes;
    }

    /// This browser's subscription, `{subscription}`, or what stood in the way, `{problem}`: "denied" when
    /// notifications are not allowed, "unreachable" when the push service didn't answer (in time, or at all).
    async function subscribeHere() {
      if ((await Notification.requestPermission()) !== "granted") return { problem: "denied" };
      await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      const registration = await navigator.serviceWorker.ready;
      const asked = registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(section.dataset.vapidKey),
      });
      let subscription;
      try {
        subscription = await Promise.race([
          asked, new Promise((resolve) => setTimeout(() => resolve(null), PUSH_SERVICE_WAIT_MS)),
        ]);
      } catch (error) {
        return { problem: error && error.name === "NotAllowedError" ? "denied" : "unreachable" };
      }
      if (subscription) return { subscription };
      // A push service that answers after we stopped waiting: the subscription is still this person's.
      asked.then(async (late) => {
        if (section.dataset.state !== "unreachable") return;
        await register(late);
        show(true);
      }).catch(() => undefined);
      return { problem: "unreachable" };
    }

    async function subscribe() {
      busy(true);
      show(false, MESSAGES.asking);
      try {
        const { subscription, problem } = await subscribeHere();
        if (problem) {
          show(false, MESSAGES[problem]);
          section.dataset.state = problem;
          return;
        }
        await register(subscription);
        show(true);
      } catch (error) {
        show(false, MESSAGES.refused + (error && error.message ? error.message : "try again."));
      } finally {
        busy(false);
      }
    }

    async function unsubscribe() {
      busy(true);
      show(true, MESSAGES.asking);
      try {
        const registration = await navigator.serviceWorker.getRegistration("/");
        const subscription = registration && (await registration.pushManager.getSubscription());
        if (subscription) {
          await post("/unsubscribe", { endpoint: subscription.endpoint });
          await subscription.unsubscribe();
        }
        show(false, MESSAGES.unsubscribed);
      } catch (error) {
        show(true, MESSAGES.notUnsubscribed + (error && error.message ? error.message : "try again."));
      } finally {
        busy(false);
      }
    }

    subscribeButton.addEventListener("click", subscribe);
    unsubscribeButton.addEventListener("click", unsubscribe);

    // Where this browser stands now, shown once known. A subscription it already has is handed to the server
    // again: the browser may have renewed it, or made it after we stopped waiting on an earlier visit.
    navigator.serviceWorker.getRegistration("/")
      .then((registration) => registration && registration.pushManager.getSubscription())
      .then(async (subscription) => {
        if (!subscription) return show(false, Notification.permission === "denied" ? MESSAGES.denied : null);
        show(true);
        section.hidden = false;
        await register(subscription);
      })
      .catch((error) => {
        status.textContent = MESSAGES.refused + (error && error.message ? error.message : "try again.");
      })
      .finally(() => {
        section.hidden = false;
      });
  }

  /// Holds a sign-out form back until this browser's subscription is forgotten, on the server and in the browser;
  /// however that goes, the sign-out goes on, within a few seconds at most.
  function forgetOnSignOut(form) {
    let leaving = false;
    form.addEventListener("submit", (event) => {
      if (leaving) return;
      event.preventDefault();
      const leave = () => {
        if (leaving) return;
        leaving = true;
        form.submit();
      };
      const timer = setTimeout(leave, 3000);
      navigator.serviceWorker.getRegistration("/")
        .then((registration) => registration && registration.pushManager.getSubscription())
        .then(async (subscription) => {
          if (!subscription) return;
          await post("/unsubscribe", { endpoint: subscription.endpoint }).catch(() => undefined);
          await subscription.unsubscribe();
        })
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          leave();
        });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return;
    document.querySelectorAll("form[action='/signout']").forEach(forgetOnSignOut);
    const section = document.getElementById("web-push");
    if (section && section.dataset.vapidKey && "Notification" in window) setUp(section);
  });
})();
