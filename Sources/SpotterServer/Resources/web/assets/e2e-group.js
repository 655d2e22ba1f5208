// An encrypted group's keys in the browser (docs/encryption.md, "Group epoch keys" and "Who holds what").
// Any member's device fetches its wrapped epoch keys and keeps the opened ones in memory only. On the group's
// page, the owner's device signs `create` and makes epoch 0; an admin's device reconciles the chain with the
// server's members: it signs `add` for members the server let in (with the role the server gives them) and
// wraps them the keys, and signs `remove` for members gone, with the next epoch wrapped only to those who stay.
// The server's roles are the group's truth: the device of the chain's owner signs `role` for each role the
// server gives that the chain does not yet (`roles_due`: a promotion, demotion or hand-over made on the site).
// Exposes window.SpotterE2EGroup: epochKeys(groupId), verifiedChain(groupId), openKeys(groupId, device).
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  if (!E || !W) return;

  /// The group's chain, verified against the device chains of everyone it names.
  async function verifiedChain(groupId) {
    const statements = W.statements((await W.api("GET", `/groups/${groupId}/e2e/chain`)).statements);
    if (statements.length === 0) return { chain: null, deviceChains: {} };
    const users = new Set(statements.map((statement) => E.statementBody(statement).user));
    const deviceChains = {};
    for (const user of users) deviceChains[user] = await W.deviceChain(user);
    const verified = await E.verifyGroupChain(groupId, statements, Object.values(deviceChains).filter(Boolean));
    return { chain: W.remember(`group:${groupId}`, verified), deviceChains };
  }

  /// Each live device of `chain` (a verified device chain) gets `epochKey` for `epoch`.
  async function wrapTo(chain, epochKey, groupId, epoch) {
    return Promise.all(chain.live.map(async (device) => ({
      device_id: device.id,
      key: E.toBase64url(await E.wrapEpochKey(E.fromBase64url(device.hpke_public), epochKey, groupId, epoch)),
    })));
  }

  const statement = (keys, groupId, seq, prev, fields) =>
    E.signStatement(keys.signing, keys.id, { v: 1, chain: `group:${groupId}`, seq, prev, at: W.now(), ...fields });

  /// The group's first statement and epoch 0, wrapped to this account's live devices.
  async function create(groupId, device) {
    const epochKey = E.randomBytes(32);
    const signed = await statement(device.keys, groupId, 0, null, { kind: "create", user: W.userId, history: true });
    const keys = await wrapTo(device.chain, epochKey, groupId, 0);
    await W.api("POST", `/groups/${groupId}/e2e/chain`, { statements: [signed], epoch: { number: 0, keys } });
  }

  /// Opens this device's wrapped keys: a Map from epoch to its 32-byte key.
  async function fetchKeys(groupId, device) {
    const { keys } = await W.api("GET", `/groups/${groupId}/e2e/keys?device_id=${device.keys.id}`);
    const opened = new Map();
    for (const { epoch, key } of keys) {
      opened.set(epoch, await E.unwrapEpochKey(device.keys.hpke, E.fromBase64url(key), groupId, epoch));
    }
    return opened;
  }

  /// Adds the members the server let in and the chain has not, as admins when the server made them admins (or
  /// owner: the hand-over follows as a `role`); wraps them the epochs they may read.
  async function addAwaiting(groupId, device, state, epochKeys, admins) {
    const { chain } = await verifiedChain(groupId);
    const joining = [];
    for (const user of state.awaiting_keys) {
      // No device yet: added when they have one. A chain that does not verify: not added, and said so.
      let theirs = null;
      try {
        theirs = await W.deviceChain(user);
      } catch (error) {
        console.warn(`Not adding ${user}: their device list does not verify (${error.message}).`);
      }
      if (theirs) joining.push({ user, chain: theirs });
    }
    if (joining.length === 0) return 0;
    const statements = [];
    let prev = chain.head;
    for (const [i, { user }] of joining.entries()) {
      const role = admins.has(user) ? "admin" : "member";
      const signed = await statement(device.keys, groupId, chain.length + i, prev, { kind: "add", user, role });
      statements.push(signed);
      prev = await E.statementHash(signed);
    }
    await W.api("POST", `/groups/${groupId}/e2e/chain`, { statements });
    const epochs = [...epochKeys.keys()].filter((epoch) => chain.history || epoch === state.epoch);
    const keys = [];
    for (const { chain: theirs } of joining) {
      for (const epoch of epochs) {
        for (const wrapped of await wrapTo(theirs, epochKeys.get(epoch), groupId, epoch)) keys.push({ ...wrapped, epoch });
      }
    }
    if (keys.length > 0) await W.api("POST", `/groups/${groupId}/e2e/keys`, { keys });
    return joining.length;
  }

  /// Removes chain members the server no longer counts, and makes the next epoch for those who stay.
  async function rotate(groupId, device, state, serverMembers) {
    const { chain } = await verifiedChain(groupId);
    const gone = Object.keys(chain.members).filter((user) => !serverMembers.has(user) && user !== chain.owner);
    const statements = [];
    let prev = chain.head;
    for (const [i, user] of gone.entries()) {
      const signed = await statement(device.keys, groupId, chain.length + i, prev, { kind: "remove", user });
      statements.push(signed);
      prev = await E.statementHash(signed);
    }
    const number = state.epoch + 1;
    const epochKey = E.randomBytes(32);
    const keys = [];
    for (const user of Object.keys(chain.members).filter((member) => !gone.includes(member))) {
      const theirs = await W.deviceChain(user);
      if (theirs) keys.push(...(await wrapTo(theirs, epochKey, groupId, number)));
    }
    await W.api("POST", `/groups/${groupId}/e2e/chain`, { statements, epoch: { number, keys } });
  }

  /// The chain owner's part: a `role` for each member whose role by the server the chain does not give yet, the
  /// hand-over last (after it this device no longer signs as the owner). Answers how many it signed.
  async function mirrorRoles(groupId, device, state) {
    const { chain } = await verifiedChain(groupId);
    if (chain.owner !== W.userId) return 0;
    const due = state.roles_due.filter(({ user_id: user, role }) =>
      user !== chain.owner && chain.members[user] && chain.members[user] !== role);
    const ordered = [...due.filter((d) => d.role !== "owner"), ...due.filter((d) => d.role === "owner").slice(0, 1)];
    if (ordered.length === 0) return 0;
    const statements = [];
    let prev = chain.head;
    for (const [i, { user_id: user, role }] of ordered.entries()) {
      const signed = await statement(device.keys, groupId, chain.length + i, prev, { kind: "role", user, role });
      statements.push(signed);
      prev = await E.statementHash(signed);
    }
    await W.api("POST", `/groups/${groupId}/e2e/chain`, { statements });
    return ordered.length;
  }

  /// On the group's page: makes the group's keys, or reconciles them, as this viewer may.
  async function reconcile(groupId, device, box) {
    let state = await W.api("GET", `/groups/${groupId}/e2e`);
    if (state.epoch == null && state.chain.length === 0 && box.dataset.isOwner === "true") {
      W.setStatus("Making this group's keys…");
      await create(groupId, device);
      state = await W.api("GET", `/groups/${groupId}/e2e`);
    }
    if (state.epoch == null) return;
    const isAdmin = box.dataset.isAdmin === "true";
    if (isAdmin && state.awaiting_keys.length > 0) {
      const admins = new Set((box.dataset.adminIds || "").split(" ").filter(Boolean));
      const added = await addAwaiting(groupId, device, state, await fetchKeys(groupId, device), admins);
      if (added > 0) W.setStatus(`Gave this group's keys to ${added} new member${added === 1 ? "" : "s"}.`);
      state = await W.api("GET", `/groups/${groupId}/e2e`);
    }
    // Whatever this viewer's role on the site now: only the chain's owner signs roles, and the server takes
    // from it only the roles it gives.
    if ((state.roles_due || []).length > 0 && (await mirrorRoles(groupId, device, state)) > 0) {
      state = await W.api("GET", `/groups/${groupId}/e2e`);
    }
    if (isAdmin && state.rotation_due) {
      const members = new Set((box.dataset.memberIds || "").split(" ").filter(Boolean));
      await rotate(groupId, device, state, members);
    }
  }

  const cache = new Map();
  /// This device's opened epoch keys for the group (reconciled first on the group's own page), once per page.
  function epochKeys(groupId) {
    if (!cache.has(groupId)) {
      cache.set(groupId, (async () => {
        const device = await W.device();
        if (device.state !== "ready") {
          const error = new Error(device.state === "other-devices"
            ? "Your account's keys are on another device: add this browser from it in Settings, Encryption."
            : "This browser's keys were removed from your account.");
          error.device = device;
          throw error;
        }
        const box = document.getElementById("e2e-group");
        let problem = null;
        if (box && box.dataset.groupId === groupId) {
          try {
            await reconcile(groupId, device, box).catch((error) => {
              // Another admin's device appended first (a 409): start again from where the chain now stands.
              if (error.status !== 409) throw error;
              return reconcile(groupId, device, box);
            });
          } catch (error) {
            // Reading and posting with the keys this device has goes on; the page says what is left to do.
            problem = error.message;
          }
        }
        const keys = await fetchKeys(groupId, device);
        const state = await W.api("GET", `/groups/${groupId}/e2e`);
        return { keys, current: state.epoch, device, problem };
      })());
    }
    return cache.get(groupId);
  }

  window.SpotterE2EGroup = Object.freeze({ epochKeys, verifiedChain, openKeys: fetchKeys });
})();
