// Nostr in the browser, through a NIP-07 extension (window.nostr: getPublicKey, signEvent), which holds the key
// and signs; neither this page nor the server ever sees a secret key. Without an extension nothing here shows.
//   Sign-in page: "Sign in with Nostr" signs a NIP-98 event (kind 27235) naming the web sign-in URL and posts it.
//   Settings: "Link a key" signs the server's challenge as a kind 22242 event naming its relay, and posts it.
// https://github.com/nostr-protocol/nips/blob/master/07.md · 98.md · 42.md
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  // Extensions inject window.nostr at their own pace, sometimes after the page loads: look for a few seconds.
  function whenNostr(found) {
    var tries = 0;
    (function look() {
      if (window.nostr && typeof window.nostr.signEvent === "function") {
        found(window.nostr);
      } else if (++tries < 20) {
        setTimeout(look, 250);
      }
    })();
  }

  // The event's JSON as UTF-8, in base64 (btoa alone takes only Latin-1).
  function base64(text) {
    var bytes = new TextEncoder().encode(text);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary);
  }

  function now() {
    return Math.floor(Date.now() / 1000);
  }

  function showError(element, message) {
    element.textContent = message;
    element.hidden = false;
  }

  async function answer(response) {
    var body = {};
    try {
      body = await response.json();
    } catch (e) {
      body = {};
    }
    if (!response.ok) throw new Error(body.error || "The server refused (" + response.status + ").");
    return body;
  }

  function setUpSignIn(box) {
    var button = box.querySelector("#nostr-signin-button");
    var error = box.querySelector("#nostr-signin-error");
    whenNostr(function (nostr) {
      box.hidden = false;
      button.addEventListener("click", async function () {
        button.disabled = true;
        error.hidden = true;
        try {
          var event = await nostr.signEvent({
            kind: 27235, created_at: now(), content: "",
            tags: [["u", box.dataset.url], ["method", "POST"]],
          });
          var returnTo = document.querySelector("form[action='/signin'] input[name='return_to']");
          var url = "/signin/nostr" + (returnTo ? "?return_to=" + encodeURIComponent(returnTo.value) : "");
          var body = await answer(await fetch(url, {
            method: "POST", credentials: "same-origin",
            headers: { "Authorization": "Nostr " + base64(JSON.stringify(event)), "X-CSRF-Token": csrf,
                       "Accept": "application/json" },
          }));
          window.location.assign(body.location || "/");
        } catch (e) {
          showError(error, e && e.message ? e.message : "The extension did not sign.");
          button.disabled = false;
        }
      });
    });
  }

  function setUpLink(box) {
    var button = box.querySelector("#nostr-link-button");
    var error = box.querySelector("#nostr-link-error");
    var instead = document.getElementById("nostr-no-extension");
    whenNostr(function (nostr) {
      box.hidden = false;
      if (instead) instead.hidden = true;
      button.addEventListener("click", async function () {
        button.disabled = true;
        error.hidden = true;
        try {
          var headers = { "X-CSRF-Token": csrf, "Accept": "application/json" };
          var challenge = await answer(await fetch("/settings/nostr/challenge", {
            method: "POST", credentials: "same-origin", headers: headers,
          }));
          var event = await nostr.signEvent({
            kind: 22242, created_at: now(), content: "",
            tags: [["relay", challenge.relay_url], ["challenge", challenge.challenge]],
          });
          headers["Content-Type"] = "application/json";
          await answer(await fetch("/settings/nostr/keys", {
            method: "POST", credentials: "same-origin", headers: headers, body: JSON.stringify({ event: event }),
          }));
          window.location.assign("/settings?saved=nostr-linked#nostr-title");
        } catch (e) {
          showError(error, e && e.message ? e.message : "The extension did not sign.");
          button.disabled = false;
        }
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var signIn = document.getElementById("nostr-signin");
    if (signIn) setUpSignIn(signIn);
    var link = document.getElementById("nostr-link");
    if (link) setUpLink(link);
  });
})();
