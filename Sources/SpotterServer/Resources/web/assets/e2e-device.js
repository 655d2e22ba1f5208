// Settings, "Encryption: this browser": whether this browser is a device of the account, and the account's
// safety number, worked out here from its verified device chain. A browser with no keys is not made a device
// behind the person's back: a button does it (an encrypted group's page does it by itself).
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  const box = document.getElementById("e2e-device");
  if (!E || !W || !box) return;
  const button = document.getElementById("e2e-device-setup");

  const number = (chain) => E.safetyNumber(W.userId, chain.live.map((d) => E.fromBase64url(d.signing_public)));

  async function describe(device) {
    if (device.state === "ready") {
      W.setStatus(`This browser is a device of your account (${device.chain.live.length} in all). ` +
        `Your safety number: ${await number(device.chain)}.`);
    } else if (device.state === "other-devices") {
      W.setStatus(`Your keys are on another device (safety number ${await number(device.chain)}); ` +
        "adding this browser from it is not built yet.");
    } else {
      W.setStatus("This browser's keys were removed from your account.");
    }
  }

  (async () => {
    try {
      const keys = await E.loadDeviceKeys(`device:${W.userId}`);
      const chain = await W.deviceChain(W.userId);
      if (!keys && !chain) {
        W.setStatus("This browser has no keys yet.");
        button.hidden = false;
        button.addEventListener("click", async () => {
          button.disabled = true;
          try {
            await describe(await W.device());
            button.hidden = true;
          } catch (failure) {
            W.setStatus(failure.message);
            button.disabled = false;
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
