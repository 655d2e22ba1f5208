// Spotter's photos in the browser: BlurHash placeholders, the lightbox, and the photo picker's uploads. Each has
// a plain HTML fallback: images load without placeholders, a photo link opens the large photo, and the compose
// form posts its files with the text. No build step; no inline script (the CSP forbids it).
"use strict";

// ---- BlurHash (https://github.com/woltapp/blurhash, "Algorithm.md"): decoded by hand, since no package can be
// loaded without a build step. A 32-px image of the photo's colours, painted behind it while it loads. ----
const BlurHash = (() => {
  const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";
  const decode83 = (text) => [...text].reduce((value, c) => {
    const digit = digits.indexOf(c);
    if (digit < 0) throw new Error("not a BlurHash");
    return value * 83 + digit;
  }, 0);
  const toLinear = (value) => {
    const v = value / 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  const toSRGB = (value) => {
    const v = Math.max(0, Math.min(1, value));
    return v <= 0.0031308 ? Math.trunc(v * 12.92 * 255 + 0.5) : Math.trunc((1.055 * Math.pow(v, 1 / 2.4) - 0.055) * 255 + 0.5);
  };
  const signPow = (value, exponent) => Math.sign(value) * Math.pow(Math.abs(value), exponent);

  /// The RGBA pixels of `hash` at width × height.
  function decode(hash, width, height) {
    if (!hash || hash.length < 6) throw new Error("not a BlurHash");
    const size = decode83(hash[0]);
    const countY = Math.floor(size / 9) + 1;
    const countX = (size % 9) + 1;
    if (hash.length !== 4 + 2 * countX * countY) throw new Error("not a BlurHash");
    const maximum = (decode83(hash[1]) + 1) / 166;
    const colours = [];
    const dc = decode83(hash.substring(2, 6));
    colours.push([toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)]);
    for (let i = 1; i < countX * countY; i++) {
      const ac = decode83(hash.substring(4 + i * 2, 6 + i * 2));
      colours.push([Math.floor(ac / 361), Math.floor(ac / 19) % 19, ac % 19]
        .map((q) => signPow((q - 9) / 9, 2) * maximum));
    }
    const pixels = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let r = 0, g = 0, b = 0;
        for (let j = 0; j < countY; j++) {
          for (let i = 0; i < countX; i++) {
            const basis = Math.cos((Math.PI * x * i) / width) * Math.cos((Math.PI * y * j) / height);
            const colour = colours[i + j * countX];
            r += colour[0] * basis;
            g += colour[1] * basis;
            b += colour[2] * basis;
          }
        }
        const at = 4 * (x + y * width);
        pixels[at] = toSRGB(r);
        pixels[at + 1] = toSRGB(g);
        pixels[at + 2] = toSRGB(b);
        pixels[at + 3] = 255;
      }
    }
    return pixels;
  }

  /// A PNG data URL of `hash` (`img-src data:` allows it as a background).
  function dataURL(hash, width = 32, height = 32) {
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    context.putImageData(new ImageData(decode(hash, width, height), width, height), 0, 0);
    return canvas.toDataURL("image/png");
  }

  return { decode, dataURL };
})();

(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";

  // ---- Placeholders: every photo with a BlurHash, now and as cards arrive (load more, live updates). ----
  function paint(root) {
    root.querySelectorAll?.("img[data-blurhash]:not([data-painted])").forEach((img) => {
      img.dataset.painted = "true";
      try {
        const ratio = img.width && img.height ? img.height / img.width : 1;
        const width = 32;
        const height = Math.max(1, Math.min(64, Math.round(width * ratio)));
        img.style.backgroundImage = `url("${BlurHash.dataURL(img.dataset.blurhash, width, height)}")`;
        img.classList.add("has-placeholder");
      } catch { /* a hash we can't read: the photo loads without a placeholder */ }
    });
  }
  paint(document);
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(paint)))
    .observe(document.body, { childList: true, subtree: true });

  // ---- Lightbox: a photo link opens the large photo in a modal <dialog>; Escape, the button or a click
  // outside closes it, and focus goes back to the photo. Arrow keys move through the post's photos. ----
  let lightbox;
  let opener;
  function makeLightbox() {
    const dialog = document.createElement("dialog");
    dialog.className = "lightbox";
    dialog.setAttribute("aria-label", "Photo");
    const figure = document.createElement("figure");
    const image = document.createElement("img");
    const caption = document.createElement("figcaption");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "button lightbox-close";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    figure.append(image, caption);
    dialog.append(close, figure);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener("close", () => { image.removeAttribute("src"); opener?.focus(); });
    dialog.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      const links = [...opener.closest(".photos").querySelectorAll("a[data-lightbox]")];
      const next = links[links.indexOf(opener) + (event.key === "ArrowRight" ? 1 : -1)];
      if (next) { event.preventDefault(); show(next); }
    });
    document.body.append(dialog);
    return dialog;
  }
  function show(link) {
    lightbox ??= makeLightbox();
    opener = link;
    const image = lightbox.querySelector("img");
    const caption = lightbox.querySelector("figcaption");
    image.src = link.href;
    image.alt = link.dataset.alt || "";
    caption.textContent = link.dataset.alt || "";
    caption.hidden = !link.dataset.alt;
    if (!lightbox.open) lightbox.showModal();
    lightbox.querySelector(".lightbox-close").focus();
  }
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-lightbox]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || typeof HTMLDialogElement !== "function") return;
    event.preventDefault();
    show(link);
  });

  // ---- Photo picker: each photo uploads as soon as it is chosen (XMLHttpRequest, for progress), then waits
  // until the server has processed it; the form then posts the photos' ids and alt texts with the text. ----
  let counter = 0;
  document.querySelectorAll(".photo-picker").forEach((picker) => {
    const input = picker.querySelector('input[type="file"]');
    const list = picker.querySelector(".photo-items");
    const status = picker.querySelector(".photo-status");
    const purpose = picker.dataset.purpose || "post";
    const max = Number(picker.dataset.max || 4);
    // The server's limit, where the page says it: a photo over it is refused before it is sent.
    const maxBytes = Number(picker.dataset.maxBytes || 0);
    const tooLarge = picker.dataset.sizeLimit
      ? `the photo is larger than ${picker.dataset.sizeLimit}.` : "the photo is larger than this server takes.";
    picker.classList.add("is-enhanced");
    input.addEventListener("change", () => {
      const files = [...input.files];
      if (max === 1) list.replaceChildren();
      const room = max - list.children.length;
      files.slice(0, Math.max(0, room)).forEach((file) => list.append(upload(file)));
      status.textContent = files.length > room ? `Up to ${max} photos: ${files.length - Math.max(0, room)} left out.` : "";
      input.value = "";
    });
    picker.closest("form").addEventListener("submit", (event) => {
      if (!list.querySelector(".photo-item[data-pending]")) return;
      event.preventDefault();
      status.textContent = "Wait until your photos have uploaded, or remove them.";
    });

    function upload(file) {
      const n = counter++;
      const item = document.createElement("li");
      item.className = "photo-item";
      item.dataset.pending = "true";
      const thumb = document.createElement("img");
      thumb.className = "photo-thumb";
      thumb.alt = "";
      const reader = new FileReader();
      reader.addEventListener("load", () => { thumb.src = reader.result; });
      reader.readAsDataURL(file);
      const altID = `${picker.id}-new-${n}-alt`;
      const label = document.createElement("label");
      label.htmlFor = altID;
      label.textContent = "Describe the photo for people who can't see it";
      const alt = document.createElement("textarea");
      alt.id = altID;
      alt.rows = 2;
      alt.maxLength = 1500;
      const progress = document.createElement("progress");
      progress.max = 100;
      progress.value = 0;
      progress.setAttribute("aria-label", `Uploading ${file.name}`);
      const error = document.createElement("p");
      error.className = "field-error";
      error.hidden = true;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button small photo-remove-button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${file.name}`);
      remove.addEventListener("click", () => {
        request.abort();
        item.remove();
        status.textContent = `${file.name} removed.`;
        input.focus();
      });
      item.append(thumb, progress, ...(purpose === "avatar" ? [] : [label, alt]), error, remove);

      const fail = (message) => {
        delete item.dataset.pending;
        item.classList.add("is-failed");
        progress.remove();
        error.textContent = `${file.name}: ${message}`;
        error.hidden = false;
        status.textContent = error.textContent;
      };
      const ready = (media) => {
        delete item.dataset.pending;
        progress.value = 100;
        progress.setAttribute("aria-label", `${file.name} uploaded`);
        const id = document.createElement("input");
        id.type = "hidden";
        id.name = purpose === "avatar" ? "avatar_media_id" : "media_id";
        id.value = media.id;
        item.insertBefore(id, progress);
        alt.name = "media_alt";
        item.dataset.mediaId = media.id;
        if (media.preview_url) thumb.src = media.preview_url;
        status.textContent = `${file.name} is ready.`;
      };

      const request = new XMLHttpRequest();
      request.open("POST", "/uploads");
      request.setRequestHeader("X-CSRF-Token", csrf);
      request.setRequestHeader("Accept", "application/json");
      request.responseType = "json";
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) progress.value = Math.round((event.loaded / event.total) * 90);
      });
      request.addEventListener("error", () => fail("the upload failed; check your connection and try again."));
      request.addEventListener("load", () => {
        const body = request.response || {};
        if (request.status === 413) return fail(tooLarge);
        if (request.status !== 202) return fail(problem(body, request.status));
        wait(body.id, ready, fail);
      });
      if (maxBytes && file.size > maxBytes) {
        thumb.remove();  // nothing of it is sent, nor shown
        fail(tooLarge);
        return item;
      }
      const form = new FormData();
      form.append("purpose", purpose);
      form.append("file", file, file.name);
      request.send(form);
      return item;
    }
  });

  /// Asks for the upload's state until it is ready or failed (about a minute at most).
  async function wait(id, ready, fail, tries = 0) {
    try {
      const response = await fetch(`/uploads/${encodeURIComponent(id)}`, {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      const media = await response.json();
      if (!response.ok) return fail(problem(media, response.status));
      if (media.status === "ready") return ready(media);
      if (media.status === "failed") return fail(media.reason || "the photo could not be read.");
    } catch { /* offline for a moment: ask again */ }
    if (tries > 150) return fail("processing took too long; try again.");
    setTimeout(() => wait(id, ready, fail, tries + 1), 400);
  }

  function problem(body, status) {
    const first = body?.errors?.[0];
    // The file's refusals read after "the photo": "the photo is larger than 16 MB."
    if (first) return first.field === "file" ? `the photo ${first.detail}.` : first.detail;
    if (status === 401) return "you are signed out; sign in and try again.";
    if (status === 413) return "the photo is larger than this server takes.";
    return body?.detail || "the upload was refused.";
  }
})();
