// Posts, photos and comments of an encrypted group, sealed and opened in this browser (docs/encryption.md,
// "Content keys and items" and "Blobs"). The composer seals the post body under a fresh content key wrapped by
// the current epoch; each photo, and a thumbnail drawn on a canvas, is encrypted with its own key and uploaded
// straight to the blob store. The server renders sealed posts and comments as placeholders carrying their
// sealed JSON; this file opens them in place (also those that arrive live, and a workout as a workout card,
// drawn by e2e-workout.js), and deletes one's own post by a signed tombstone.
// Exposes window.SpotterE2EPosts: post(groupId, {text, workout, children, files}), which the sealed workout
// builder uses too.
"use strict";

(function () {
  const E = window.SpotterE2E;
  const W = window.SpotterE2EWeb;
  const G = window.SpotterE2EGroup;
  if (!E || !W || !G) return;
  const b64 = E.toBase64url;
  const unb64 = E.fromBase64url;
  const THUMBNAIL = 480;

  function showError(element, message) {
    if (!element) return;
    element.textContent = message;
    element.hidden = !message;
  }

  /// The newest epoch's key, to seal with.
  async function currentKey(groupId) {
    const keys = await G.epochKeys(groupId);
    if (keys.current == null || !keys.keys.has(keys.current)) throw new Error("This browser has no key for this group yet.");
    return { epoch: keys.current, key: keys.keys.get(keys.current) };
  }

  /// Seals `body` as item `id` (a post or a comment): `{epoch, key, body}` as the server takes it.
  async function seal(groupId, id, body) {
    const { epoch, key } = await currentKey(groupId);
    const contentKey = E.randomBytes(32);
    return {
      epoch, key: b64(await E.wrapContentKey(key, contentKey, groupId, epoch, id)),
      body: b64(await E.sealPost(contentKey, groupId, id, body)),
    };
  }

  /// Opens sealed content made under item `id`, answering its body object.
  async function open(groupId, id, sealed) {
    const keys = await G.epochKeys(groupId);
    const epochKey = keys.keys.get(sealed.epoch);
    if (!epochKey) throw new Error("This browser has no key for when this was posted.");
    const contentKey = await E.unwrapContentKey(epochKey, unb64(sealed.key), groupId, sealed.epoch, id);
    return { body: await E.openPost(contentKey, groupId, id, unb64(sealed.body)), epochKey };
  }

  // ---- Photos: encrypted, uploaded to the presigned URL, completed. ----
  async function uploadBlob(groupId, plaintext) {
    const contentKey = E.randomBytes(32);
    const data = await E.encryptBlob(contentKey, plaintext);
    const upload = await W.api("POST", `/groups/${groupId}/e2e/blobs`, { byte_size: data.length });
    const put = await fetch(upload.upload_url, { method: "PUT", headers: upload.upload_headers || {}, body: data });
    if (!put.ok) throw new Error(`The photo's upload was refused (${put.status}).`);
    await W.api("POST", `/groups/${groupId}/e2e/blobs/${upload.id}/complete`);
    return { id: upload.id.toLowerCase(), contentKey };
  }

  /// A JPEG thumbnail at most THUMBNAIL pixels on its long side, and the photo's own size.
  async function thumbnail(file) {
    const image = await createImageBitmap(file);
    const scale = Math.min(1, THUMBNAIL / Math.max(image.width, image.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.width * scale));
    canvas.height = Math.max(1, Math.round(image.height * scale));
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.8));
    return { bytes: new Uint8Array(await blob.arrayBuffer()), width: image.width, height: image.height };
  }

  async function sealPhoto(groupId, file) {
    const small = await thumbnail(file);
    const full = await uploadBlob(groupId, new Uint8Array(await file.arrayBuffer()));
    const thumb = await uploadBlob(groupId, small.bytes);
    // Each blob's own content key goes in the sealed body as it is: the body's seal protects it (the spec, and
    // what SpotterKit writes and reads).
    return {
      entry: {
        blob_id: full.id, key: b64(full.contentKey), thumbnail_blob_id: thumb.id, thumbnail_key: b64(thumb.contentKey),
        width: small.width, height: small.height, type: file.type || "image/jpeg",
      },
      ids: [full.id, thumb.id],
    };
  }

  /// Seals and sends a post: each photo (and its thumbnail) encrypted and uploaded, then the body
  /// `{v: 1, text, workout, children, media}` sealed under the current epoch. Answers the post's id.
  async function sealAndPost(groupId, { text, workout = null, children = [], files = [] }) {
    await currentKey(groupId);  // no key: refused before any upload
    const media = [];
    const blobIds = [];
    for (const file of files) {
      const photo = await sealPhoto(groupId, file);
      media.push(photo.entry);
      blobIds.push(...photo.ids);
    }
    const id = W.uuidv7();
    const sealed = await seal(groupId, id, { v: 1, text, workout, children, media });
    await W.api("POST", "/posts", {
      id, kind: "note", group_id: groupId, child_ids: children.map((child) => child.id),
      sealed: { ...sealed, blob_ids: blobIds },
    });
    return id;
  }

  function setUpComposer(box) {
    const form = document.getElementById("sealed-compose");
    if (!form) return;
    const groupId = box.dataset.groupId;
    const error = document.getElementById("sealed-error");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = document.getElementById("sealed-submit");
      const text = document.getElementById("sealed-text").value.trim();
      const files = Array.from(document.getElementById("sealed-photos").files || []);
      const children = Array.from(form.querySelectorAll("input[name=child]:checked"))
        .map((input) => ({ id: input.value, name: input.dataset.name }));
      if (!text && files.length === 0) return showError(error, "Write something or add a photo.");
      button.disabled = true;
      showError(error, "");
      try {
        W.setStatus("Sealing your post…");
        await sealAndPost(groupId, { text, children, files });
        location.reload();
      } catch (failure) {
        showError(error, failure.message);
        W.setStatus("");
        button.disabled = false;
      }
    });
  }

  // ---- Opening placeholders. ----
  async function photoURL(groupId, blobId, key, type) {
    const response = await fetch(`/e2e/groups/${groupId}/e2e/blobs/${blobId}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`A photo could not be fetched (${response.status}).`);
    const plain = await E.decryptBlob(unb64(key), new Uint8Array(await response.arrayBuffer()));
    return URL.createObjectURL(new Blob([plain], { type: type || "image/jpeg" }));
  }

  function paragraph(className, text) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = text;
    return p;
  }

  async function openPostPlaceholder(element) {
    const groupId = element.dataset.groupId;
    const postId = element.dataset.postId;
    const sealed = JSON.parse(element.dataset.sealed);
    const { body } = await open(groupId, postId, sealed);
    const status = element.querySelector(".sealed-status");
    const children = Array.isArray(body.children) ? body.children : [];
    const named = new Set(children.map((child) => child.id));
    const cleartext = (element.dataset.childIds || "").split(" ").filter(Boolean);
    if (cleartext.some((id) => !named.has(id)) || children.some((child) => !cleartext.includes(child.id))) {
      throw new Error("The post's children do not match what the server says.");
    }
    if (status) status.textContent = "Encrypted";
    if (children.length > 0) {
      const label = document.createElement("span");
      label.className = "visibility-label children-label";
      label.textContent = "For " + children.map((child) => child.name).join(", ");
      element.prepend(label);
    }
    if (body.workout && typeof body.workout === "object" && window.SpotterE2EWorkout) {
      element.append(window.SpotterE2EWorkout.card(body.workout, element.dataset.units));
    }
    if (typeof body.text === "string" && body.text) element.append(paragraph("post-text", body.text));
    const media = Array.isArray(body.media) ? body.media : [];
    if (media.length > 0) {
      const photos = document.createElement("div");
      photos.className = media.length === 1 ? "photos photos-one" : `photos photos-grid photos-${media.length}`;
      element.append(photos);
      for (const item of media) {
        const link = document.createElement("a");
        link.className = "photo";
        link.href = "#";
        const image = document.createElement("img");
        image.alt = body.text ? `Photo: ${body.text}` : "Photo";
        image.width = item.width;
        image.height = item.height;
        image.src = await photoURL(groupId, item.thumbnail_blob_id, item.thumbnail_key);
        link.append(image);
        // The thumbnail first; a click opens the full photo in its place (a window opened after the await
        // would be a popup the browser blocks).
        link.setAttribute("aria-label", "Show the full photo");
        link.addEventListener("click", async (event) => {
          event.preventDefault();
          if (link.dataset.full) return;
          link.dataset.full = "true";
          image.src = await photoURL(groupId, item.blob_id, item.key, item.type);
        });
        photos.append(link);
      }
    }
    element.dataset.opened = "true";
  }

  async function openCommentPlaceholder(element) {
    const card = document.querySelector(".sealed-post[data-group-id]");
    const form = document.getElementById("sealed-comment-form");
    const groupId = (card && card.dataset.groupId) || (form && form.dataset.groupId);
    const { body } = await open(groupId, element.dataset.commentId, JSON.parse(element.dataset.sealed));
    element.textContent = typeof body.text === "string" ? body.text : "";
    element.dataset.opened = "true";
  }

  function openAll() {
    document.querySelectorAll("[data-sealed]:not([data-opening])").forEach((element) => {
      element.dataset.opening = "true";
      const opening = element.classList.contains("sealed-comment") ? openCommentPlaceholder : openPostPlaceholder;
      opening(element).catch((failure) => {
        const status = element.querySelector(".sealed-status");
        if (status) status.textContent = `Encrypted: ${failure.message}`;
        else element.textContent = `Encrypted: ${failure.message}`;
      });
    });
    document.querySelectorAll(".sealed-delete[hidden]").forEach((button) => {
      button.hidden = false;
      button.addEventListener("click", () => deletePost(button));
    });
  }

  // ---- Comments and deletion. ----
  function setUpCommentForm() {
    const form = document.getElementById("sealed-comment-form");
    if (!form) return;
    form.hidden = false;
    const error = document.getElementById("sealed-comment-error");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = document.getElementById("sealed-comment-text").value.trim();
      if (!text) return;
      try {
        const id = W.uuidv7();
        const sealed = await seal(form.dataset.groupId, id, { v: 1, text });
        await W.api("POST", `/posts/${form.dataset.postId}/comments`, { id, text: "", sealed });
        location.reload();
      } catch (failure) {
        showError(error, failure.message);
      }
    });
  }

  async function deletePost(button) {
    if (!window.confirm("Delete this post? It is deleted for everyone.")) return;
    try {
      const device = await W.device();
      if (device.state !== "ready") throw new Error("This browser has no keys to sign the deletion with.");
      const body = { v: 1, kind: "delete", group: button.dataset.groupId, item: button.dataset.postId, at: W.now() };
      const statement = await E.signStatement(device.keys.signing, device.keys.id, body);
      await W.api("POST", `/posts/${button.dataset.postId}/tombstone`, { statement });
      const card = button.closest(".post");
      if (card) card.remove();
    } catch (failure) {
      const card = button.closest(".post");
      showError(card && card.querySelector(".action-error"), failure.message);
    }
  }

  async function start() {
    const box = document.getElementById("e2e-group");
    try {
      const device = await W.device();
      if (device.state === "other-devices") {
        const number = await E.safetyNumber(W.userId, device.chain.live.map((d) => unb64(d.signing_public)));
        W.setStatus("Your account's keys are on another device (safety number " + number +
          "): add this browser from it in Settings, Encryption.");
        return;
      }
      if (box) {
        const keys = await G.epochKeys(box.dataset.groupId);
        if (keys.current == null || !keys.keys.has(keys.current)) {
          W.setStatus("Waiting for an admin's device to give this browser the group's keys. " +
            "The group's admins have been told; it happens when one of them opens this group. " +
            "Open this page again later." +
            (keys.problem ? ` (${keys.problem})` : ""));
        } else {
          W.setStatus("This browser holds this group's keys." +
            (keys.problem ? ` Bringing the group's keys up to date failed: ${keys.problem}` : ""));
          document.getElementById("sealed-compose").hidden = false;
          setUpComposer(box);
        }
      }
      setUpCommentForm();
      openAll();
      new MutationObserver(openAll).observe(document.body, { childList: true, subtree: true });
    } catch (failure) {
      W.setStatus(failure.message);
    }
  }

  window.SpotterE2EPosts = Object.freeze({ post: sealAndPost });
  start();
})();
