// This browser as a device of its account (docs/encryption.md, "Devices"), and the session-authenticated JSON
// routes under /e2e that the encrypted pages call (the API's own routes, with the session cookie and the page's
// CSRF token). The device's keys are made by e2e.js, kept non-extractable in IndexedDB under this account's id;
// only their public halves, in a signed add_device statement, go to the server.
// Exposes window.SpotterE2EWeb: api, uuidv7, now, device(), deviceChain(user), setStatus.
"use strict";

(function () {
  const E = window.SpotterE2E;
  if (!E) return;
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const userId = document.body.dataset.userId;

  /// A JSON call to /e2e…; a refusal throws with the problem's detail, and its status on `.status`.
  async function api(method, path, body) {
    const headers = { Accept: "application/json", "X-CSRF-Token": csrf };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch("/e2e" + path, {
      method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return null;
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = new Error((data && (data.detail || data.title)) || `The server refused (${response.status}).`);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  const now = () => Math.floor(Date.now() / 1000);

  /// A chain's statements as e2e.js reads them: the server writes ids (a statement's signer) in upper case, as
  /// Swift's UUID does; the spec's ids, and what the signed bodies name, are lower case.
  const statements = (list) => (list || []).map((statement) => ({ ...statement, signer: statement.signer.toLowerCase() }));

  /// A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, version 7, variant 10, the rest random.
  function uuidv7() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    let ms = Date.now();
    for (let i = 5; i >= 0; i--) {
      b[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    b[6] = (b[6] & 0x0f) | 0x70;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = E.toHex(b);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /// Checks a verified chain against the length and head this browser saw before, and remembers it: a chain
  /// shorter than, or not extending, what was seen is refused (the server may hide statements, not take them
  /// back). `name` is the chain's (`device:<user>`, `group:<id>`).
  function remember(name, verified) {
    const slot = `spotter-e2e-chain:${name}`;
    const remembered = JSON.parse(localStorage.getItem(slot) || "null");
    if (remembered && !E.chainExtends(remembered, verified)) {
      throw new E.E2EError(`The chain ${name} went back: the server is hiding part of it.`);
    }
    localStorage.setItem(slot, JSON.stringify({ length: verified.length, head: verified.head }));
    return verified;
  }

  /// Someone's device chain, verified here; null when they have none yet.
  async function deviceChain(user) {
    const chain = statements((await api("GET", `/device-chains/${user}`)).statements);
    if (chain.length === 0) return null;
    return remember(`device:${user}`, await E.verifyDeviceChain(user, chain));
  }

  /// Keys this browser made to be approved from another device (settings, e2e-device.js), kept apart until the
  /// chain counts them with their own signing key: then they become this browser's device keys.
  async function approvedPending(chain) {
    const pending = await E.loadDeviceKeys(`device-pending:${userId}`);
    const signing = pending && E.toBase64url(pending.signing.publicRaw);
    if (!chain || !chain.live.some((device) => device.id === pending?.id && device.signing_public === signing)) {
      return null;
    }
    await E.saveDeviceKeys(pending, `device:${userId}`);
    await E.forgetDeviceKeys(`device-pending:${userId}`);
    return pending;
  }

  /// This browser's device: `{state: "ready", keys, chain}`, or `{state: "other-devices", chain}` when the
  /// account's devices are elsewhere (settings add this browser from one of them, or with the recovery words),
  /// or `{state: "revoked", chain}` when its chain no longer counts this browser's keys.
  async function setUpDevice() {
    const slot = `device:${userId}`;
    const chain = await deviceChain(userId);
    const keys = (await E.loadDeviceKeys(slot)) || (await approvedPending(chain));
    if (keys) {
      const live = chain && chain.live.some((device) => device.id === keys.id);
      return live ? { state: "ready", keys, chain } : { state: "revoked", chain };
    }
    if (chain) return { state: "other-devices", chain };
    const made = await E.generateDeviceKeys();
    const id = crypto.randomUUID();
    const device = {
      id, name: "Web browser", hpke_public: E.toBase64url(made.hpke.publicRaw),
      signing_public: E.toBase64url(made.signing.publicRaw), recovery: false,
    };
    const body = { v: 1, chain: `device:${userId}`, seq: 0, prev: null, at: now(), kind: "add_device", device };
    const statement = await E.signStatement(made.signing, id, body);
    await api("POST", "/me/device-chain", { statement });
    const saved = await E.saveDeviceKeys({ id, hpke: made.hpke, signing: made.signing }, slot);
    return { state: "ready", keys: saved, chain: await deviceChain(userId) };
  }

  let deviceOnce = null;
  /// This browser's device, set up once per page; `fresh` looks again (settings, once another device approved
  /// this browser).
  const device = (fresh = false) => (deviceOnce = (!fresh && deviceOnce) || setUpDevice());

  /// What this browser says about its keys, in the page's `#e2e-status` (a role=status region).
  function setStatus(text) {
    const status = document.getElementById("e2e-status");
    if (status) status.textContent = text;
  }

  window.SpotterE2EWeb = Object.freeze({
    api, now, uuidv7, device, deviceChain, statements, remember, setStatus, userId,
  });
})();
