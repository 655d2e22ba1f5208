// Approving a new device in settings (docs/encryption.md, "Approving a new device"), for e2e-device.js.
// A browser whose account has devices elsewhere asks them to add it: it makes its keys (kept apart, under
// `device-pending:<user>`, until the chain counts them), sends the public halves as a device request, and shows
// a code worked out from its own keys. A browser that is a device lists the requests waiting; the person types
// the code the new device shows, and this browser signs the addition only if the keys the server handed over
// give that same code, then wraps the new device every epoch key it holds.
// Exposes window.SpotterE2EApproval: offerApproval(onApproved), offerRequests(device, tools).
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  if (!E || !W) return;
  const b64 = E.toBase64url;
  const unb64 = E.fromBase64url;
  const pendingSlot = `device-pending:${W.userId}`;
  const NOTICE = "the people you share encrypted groups with will see the new one.";
  const time = (text) => new Date(text).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const make = (tag, props) => Object.assign(document.createElement(tag), props);

  /// The request waiting for the device `deviceId`, or undefined.
  const waitingFor = async (deviceId) =>
    (await W.api("GET", "/me/device-requests")).items.find((request) => request.device.id.toLowerCase() === deviceId);

  // ---- This browser, new: asking a device of the account's to approve it. ----

  /// Offers "Approve from another device"; shows the code again when a request of this browser's still waits.
  /// `onApproved(device)` runs once another device has approved it.
  async function offerApproval(onApproved) {
    const button = document.getElementById("e2e-approval-request");
    document.getElementById("e2e-approval").hidden = false;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        let keys = await E.loadDeviceKeys(pendingSlot);
        if (!keys) {
          const made = await E.generateDeviceKeys();
          const fresh = { id: crypto.randomUUID(), hpke: made.hpke, signing: made.signing };
          keys = await E.saveDeviceKeys(fresh, pendingSlot);
        }
        const device = {
          id: keys.id, name: "Web browser", hpke_public: b64(keys.hpke.publicRaw),
          signing_public: b64(keys.signing.publicRaw), recovery: false,
        };
        const request = (await waitingFor(keys.id)) || (await W.api("POST", "/me/device-requests", { device }));
        await showCode(keys, request, onApproved);
      } catch (failure) {
        W.setStatus(failure.message);
      }
      button.disabled = false;
    });
    const pending = await E.loadDeviceKeys(pendingSlot);
    const request = pending && (await waitingFor(pending.id));
    if (request) await showCode(pending, request, onApproved);
  }

  async function showCode(keys, request, onApproved) {
    const code = await E.deviceCode(W.userId, keys.id, keys.hpke.publicRaw, keys.signing.publicRaw);
    document.getElementById("e2e-device-code").textContent = code;
    document.getElementById("e2e-approval-expiry").textContent = `The code works until ${time(request.expires_at)}.`;
    document.getElementById("e2e-approval-waiting").hidden = false;
    document.getElementById("e2e-approval-request").hidden = true;
    W.setStatus(`Waiting for a device of yours to approve this browser with the code ${code}.`);
    watch(keys, onApproved);
  }

  /// Looks every few seconds whether a device approved this browser (its keys are live in the chain), or its
  /// request is gone (declined, or it ran out). The request first: an approval removes it, then shows in the
  /// chain, so a request gone and a chain without these keys means no approval.
  function watch(keys, onApproved) {
    const timer = setInterval(async () => {
      try {
        const waiting = await waitingFor(keys.id);
        const chain = await W.deviceChain(W.userId);
        if (chain.live.some((d) => d.id === keys.id && d.signing_public === b64(keys.signing.publicRaw))) {
          clearInterval(timer);
          document.getElementById("e2e-approval").hidden = true;
          await onApproved(await W.device(true));
        } else if (!waiting) {
          clearInterval(timer);
          document.getElementById("e2e-approval-waiting").hidden = true;
          document.getElementById("e2e-approval-request").hidden = false;
          W.setStatus("The request was declined or ran out. Ask again when your other device is at hand.");
        }
      } catch (failure) {
        W.setStatus(failure.message);
      }
    }, 3000);
  }

  // ---- This browser, a device: the new devices waiting for it. ----

  /// Lists the waiting requests and looks again every few seconds; an item already shown keeps what was typed.
  /// `tools` are e2e-device.js's: `number(chain)`, `addDevice(chain, signer, device)` and
  /// `shareKeys(deviceId, hpkePublic, keysOf)`.
  function offerRequests(device, tools) {
    const section = document.getElementById("e2e-requests");
    const list = document.getElementById("e2e-request-list");
    const refresh = async () => {
      const { items } = await W.api("GET", "/me/device-requests");
      const ids = new Set(items.map((request) => request.id));
      for (const item of [...list.children]) if (!ids.has(item.dataset.requestId)) item.remove();
      const shown = new Set([...list.children].map((item) => item.dataset.requestId));
      for (const request of items.filter((r) => !shown.has(r.id))) list.append(requestItem(request, device, tools));
      section.hidden = list.children.length === 0;
    };
    refresh().catch((failure) => W.setStatus(failure.message));
    setInterval(() => refresh().catch(() => {}), 5000);
  }

  /// One waiting device: its name and times, a field for its code, Approve and Decline.
  function requestItem(request, device, tools) {
    const field = `e2e-code-${request.id}`;
    const input = make("input", {
      type: "text", id: field, autocomplete: "off", spellcheck: false, placeholder: "XXXX-XXXX-XXXX",
    });
    input.setAttribute("autocapitalize", "characters");
    const alert = make("p", { className: "alert", hidden: true });
    alert.setAttribute("role", "alert");
    const approve = make("button", { type: "submit", className: "button primary", textContent: "Approve" });
    const decline = make("button", { type: "button", className: "button", textContent: "Decline" });
    const buttons = make("div", { className: "row" });
    buttons.append(approve, decline);
    const form = make("form", { className: "stack" });
    form.append(make("label", { htmlFor: field, textContent: "The code that device shows" }), input, alert, buttons);
    const item = make("li", { className: "device-request" });
    item.dataset.requestId = request.id;
    const times = `Asked at ${time(request.created_at)}; the request runs out at ${time(request.expires_at)}.`;
    item.append(make("h4", { textContent: request.device.name }), make("p", { className: "muted", textContent: times }),
      form);
    const refuse = (text) => {
      alert.textContent = text;
      alert.hidden = false;
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      alert.hidden = true;
      approve.disabled = true;
      try {
        const refused = await approveRequest(request, input.value, device, tools);
        if (refused) refuse(refused);
        else item.remove();
      } catch (failure) {
        refuse(failure.message);
      }
      approve.disabled = false;
    });
    decline.addEventListener("click", async () => {
      try {
        await W.api("DELETE", `/me/device-requests/${request.id}`);
        item.remove();
        W.setStatus(`Declined ${request.device.name}: it gets no keys.`);
      } catch (failure) {
        refuse(failure.message);
      }
    });
    return item;
  }

  /// Signs the waiting device in, only if the code typed is the one its keys give: the server carried the keys
  /// and could have put its own there. Answers why when nothing was signed, else nothing.
  async function approveRequest(request, typed, device, tools) {
    const code = E.typedDeviceCode(typed);
    if (!code) return "A code is 12 letters and digits, as the new device shows it.";
    const asked = request.device;
    const id = asked.id.toLowerCase();
    const expected = await E.deviceCode(W.userId, id, unb64(asked.hpke_public), unb64(asked.signing_public));
    if (code !== expected || asked.recovery) {
      return "That is not the code the new device shows. Nothing was signed: check the code and type it again.";
    }
    const chain = await W.deviceChain(W.userId);
    const before = await tools.number(chain);
    await tools.addDevice(chain, device.keys, {
      id, name: asked.name, hpke_public: asked.hpke_public, signing_public: asked.signing_public, recovery: false,
    });
    const G = window.SpotterE2EGroup;
    await tools.shareKeys(id, unb64(asked.hpke_public), (groupId) => G.openKeys(groupId, device));
    const after = await tools.number(await W.deviceChain(W.userId));
    W.setStatus(`Approved ${asked.name}: it is your device now, with your groups' keys. ` +
      `Your safety number changed from ${before} to ${after}: ${NOTICE}`);
    return null;
  }

  window.SpotterE2EApproval = Object.freeze({ offerApproval, offerRequests });
})();
