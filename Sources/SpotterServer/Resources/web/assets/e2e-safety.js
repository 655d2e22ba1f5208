// An encrypted group's safety numbers (docs/encryption.md, "Safety numbers"): each member's, worked out here
// from their device chain as this browser verifies it, never taken from the server.
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  if (!E || !W || !document.getElementById("e2e-safety")) return;

  async function show(item) {
    const number = item.querySelector(".safety-number");
    try {
      const chain = await W.deviceChain(item.dataset.userId);
      if (!chain) {
        number.textContent = "No devices yet: they have not opened an encrypted group.";
        return;
      }
      const keys = chain.live.map((device) => E.fromBase64url(device.signing_public));
      number.textContent = await E.safetyNumber(item.dataset.userId, keys);
      number.classList.add("digits");
    } catch (failure) {
      number.textContent = `Could not verify their devices: ${failure.message}`;
    }
  }

  (async () => {
    await Promise.all(Array.from(document.querySelectorAll(".safety-member")).map(show));
    W.setStatus("Worked out in this browser from each person's verified device list.");
  })();
})();
