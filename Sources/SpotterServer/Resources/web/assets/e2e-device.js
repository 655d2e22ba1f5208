// Settings, "Encryption: this browser" (docs/encryption.md, "Devices", "Approving a new device" and "Recovery
// key"): whether this browser is a device of the account, with the account's safety number worked out here; a
// recovery key (24 words shown once, its kit sealed under them, its device added by this browser and given the
// keys of the person's encrypted groups); in a browser whose account has devices elsewhere, asking one of them
// to approve it (it shows a code) or adding it with the recovery words; and in a browser that is a device, the
// new devices waiting, each approved only with the code it shows, worked out here from the keys the server
// handed over. A change of devices changes the safety number, and the page says so before and after.
// A browser with no keys is not made a device behind the person's back: a button does it (an encrypted group's
// page does it by itself).
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  const G = window.SpotterE2EGroup;
  const A = window.SpotterE2EApproval;
  const box = document.getElementById("e2e-device");
  if (!E || !W || !G || !A || !box) return;
  const b64 = E.toBase64url;
  const unb64 = E.fromBase64url;

  const number = (chain) => E.safetyNumber(W.userId, chain.live.map((d) => unb64(d.signing_public)));
  const wordList = async () => (await fetch("/assets/bip39-english.txt")).text();
  const myGroups = async () => (await W.api("GET", "/groups")).groups.map((id) => id.toLowerCase());

  /// Appends `device` to this account's chain, signed by `signer` ({id, signing}).
  async function addDevice(chain, signer, device) {
    const body = {
      v: 1, chain: `device:${W.userId}`, seq: chain.length, prev: chain.head, at: W.now(), kind: "add_device", device,
    };
    const statement = await E.signStatement(signer.signing, signer.id, body);
    await W.api("POST", "/me/device-chain", { statement });
  }

  /// Wraps every epoch key `keysOf(groupId)` answers to the device with HPKE key `hpkePublic`, in each group.
  async function shareKeys(deviceId, hpkePublic, keysOf) {
    for (const groupId of await myGroups()) {
      const keys = [];
      for (const [epoch, key] of await keysOf(groupId)) {
        keys.push({ device_id: deviceId, epoch, key: b64(await E.wrapEpochKey(hpkePublic, key, groupId, epoch)) });
      }
      if (keys.length > 0) await W.api("POST", `/groups/${groupId}/e2e/keys`, { keys });
    }
  }

  async function makeRecoveryKey(device) {
    const list = await wordList();
    const secret = E.randomBytes(32);
    const kit = await E.generateRecoveryKeys();
    const id = crypto.randomUUID();
    // The kit first: a recovery device the chain names always has a kit to open.
    await W.api("PUT", "/me/recovery-kit", { kit: b64(await E.sealRecoveryKit(secret, W.userId, kit)) });
    // The chain as it is now: this page may have approved a device since it loaded.
    await addDevice(await W.deviceChain(W.userId), device.keys, {
      id, name: "Recovery key", hpke_public: kit.hpke_public, signing_public: kit.signing_public, recovery: true,
    });
    await shareKeys(id, unb64(kit.hpke_public), (groupId) => G.openKeys(groupId, device));
    return E.recoveryWords(secret, list);
  }

  /// Adds this browser, signed by the recovery key the words open, and gives it the groups' keys through the
  /// recovery device's own wrapped keys.
  async function recover(words, chain) {
    const secret = await E.recoverySecret(words, await wordList());
    const { kit } = await W.api("GET", "/me/recovery-kit");
    const opened = await E.openRecoveryKit(secret, W.userId, unb64(kit));
    const recovery = chain.live.find((d) => d.recovery && d.signing_public === opened.signing_public);
    if (!recovery) throw new Error("Those words open a recovery key your account no longer has.");
    const recoveryKeys = await E.importRecoveryKeys(opened);
    const made = await E.generateDeviceKeys();
    const id = crypto.randomUUID();
    await addDevice(chain, { id: recovery.id, signing: recoveryKeys.signing }, {
      id, name: "Web browser", hpke_public: b64(made.hpke.publicRaw), signing_public: b64(made.signing.publicRaw),
      recovery: false,
    });
    await E.saveDeviceKeys({ id, hpke: made.hpke, signing: made.signing }, `device:${W.userId}`);
    await shareKeys(id, made.hpke.publicRaw, (groupId) => G.openKeys(groupId, { keys: { id: recovery.id, hpke: recoveryKeys.hpke } }));
  }

  async function describe(device) {
    if (device.state === "ready") {
      W.setStatus(`This browser is a device of your account (${device.chain.live.length} in all). ` +
        `Your safety number: ${await number(device.chain)}.`);
      if (!device.chain.live.some((d) => d.recovery)) offerRecoveryKey(device);
      A.offerRequests(device, { number, addDevice, shareKeys });
    } else if (device.state === "other-devices") {
      W.setStatus(`Your keys are on another device (safety number ${await number(device.chain)}). ` +
        "Approve this browser from one of them, or add it with your recovery words if you made a recovery key.");
      await A.offerApproval(async (approved) => {
        document.getElementById("e2e-recover-form").hidden = true;
        await describe(approved);
      });
      offerRecovery(device.chain);
    } else {
      W.setStatus("This browser's keys were removed from your account.");
    }
  }

  function offerRecoveryKey(device) {
    const section = document.getElementById("e2e-recovery");
    const button = document.getElementById("e2e-recovery-setup");
    section.hidden = false;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const before = await number(await W.deviceChain(W.userId));
        const words = await makeRecoveryKey(device);
        const list = document.getElementById("e2e-recovery-words");
        list.replaceChildren(...words.map((word) => Object.assign(document.createElement("li"), { textContent: word })));
        list.hidden = false;
        button.hidden = true;
        document.getElementById("e2e-recovery-notice").hidden = true;
        const after = await number(await W.deviceChain(W.userId));
        W.setStatus("Your recovery key is made. Write the 24 words down now: they are not shown again. " +
          `Your safety number changed from ${before} to ${after}: ` +
          "the people you share encrypted groups with will see the new one.");
      } catch (failure) {
        W.setStatus(failure.message);
        button.disabled = false;
      }
    });
  }

  function offerRecovery(chain) {
    const form = document.getElementById("e2e-recover-form");
    form.hidden = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        await recover(document.getElementById("e2e-recover-words").value, chain);
        form.hidden = true;
        const device = await W.deviceChain(W.userId);
        W.setStatus(`This browser is a device of your account (${device.live.length} in all). ` +
          `Your safety number: ${await number(device)}.`);
      } catch (failure) {
        W.setStatus(failure.message);
        button.disabled = false;
      }
    });
  }

  (async () => {
    try {
      const button = document.getElementById("e2e-device-setup");
      const keys = await E.loadDeviceKeys(`device:${W.userId}`);
      const chain = await W.deviceChain(W.userId);
      if (!keys && !chain) {
        W.setStatus("This browser has no keys yet.");
        button.hidden = false;
        button.addEventListener("click", async () => {
          button.disabled = true;
          try {
            button.hidden = true;
            await describe(await W.device());
          } catch (failure) {
            W.setStatus(failure.message);
            button.disabled = false;
            button.hidden = false;
          }
        });
        return;
      }
      await describe(await W.device());
    } catch (failure) {
      W.setStatus(failure.message);
    }
  })();
})();
