// Spotter's end-to-end encryption in the browser: docs/encryption.md ("the v1 scheme"), byte for byte what the
// Swift module SpotterE2E does. Only WebCrypto (crypto.subtle) does cryptography here: this file composes its ECDH,
// ECDSA, HMAC, HKDF, SHA and AES-GCM as the spec and RFC 9180 say, and implements no primitive by hand.
// No build step, no inline script; everything is on one global, window.SpotterE2E, for the pages that use it.
// Bytes are Uint8Arrays; a function that takes bytes also takes an ArrayBuffer. Refusals throw an E2EError.
"use strict";

(function () {
  const subtle = crypto.subtle;
  const ECDH = { name: "ECDH", namedCurve: "P-256" };
  const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
  const ECDSA_SHA256 = { name: "ECDSA", hash: "SHA-256" };
  const EMPTY = new Uint8Array(0);

  /// Every refusal: a key that does not open, a changed byte, a chain that breaks a rule.
  class E2EError extends Error {
    constructor(message) {
      super(message);
      this.name = "E2EError";
    }
  }
  const refuse = (message) => {
    throw new E2EError(message);
  };

  // ---- Bytes: UTF-8, base64url without padding, hex. ----
  const bytes = (value) => (value instanceof Uint8Array ? value : new Uint8Array(value));
  const utf8 = (text) => new TextEncoder().encode(text);
  const fromUTF8 = (data) => new TextDecoder("utf-8", { fatal: true }).decode(data);

  /// The parts one after the other; a string part is its UTF-8 bytes.
  function concat(...parts) {
    const arrays = parts.map((part) => (typeof part === "string" ? utf8(part) : bytes(part)));
    const out = new Uint8Array(arrays.reduce((sum, array) => sum + array.length, 0));
    let offset = 0;
    for (const array of arrays) {
      out.set(array, offset);
      offset += array.length;
    }
    return out;
  }
  const u16 = (n) => Uint8Array.of(n >>> 8, n & 0xff);
  const u32 = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  const equal = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);
  const random = (length) => crypto.getRandomValues(new Uint8Array(length));

  function toBase64url(data) {
    let binary = "";
    for (const byte of bytes(data)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function fromBase64url(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
      refuse("not base64url without padding");
    }
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  }
  const toHex = (data) => Array.from(bytes(data), (b) => b.toString(16).padStart(2, "0")).join("");
  function fromHex(text) {
    if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) refuse("not hex");
    return Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));
  }

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  function id(value, what) {
    if (typeof value !== "string" || !UUID.test(value)) refuse(`${what} is not a lowercase UUID`);
    return value;
  }
  function epochNumber(epoch) {
    if (!Number.isSafeInteger(epoch) || epoch < 0) refuse("an epoch is a whole number from 0");
    return String(epoch);
  }
  function sized(value, length, what) {
    const data = bytes(value);
    if (data.length !== length) refuse(`${what} is ${length} bytes, not ${data.length}`);
    return data;
  }
  const publicPoint = (value, what) => {
    const point = sized(value, 65, what);
    if (point[0] !== 4) refuse(`${what} is not an uncompressed P-256 point`);
    return point;
  };

  // ---- Hashes, HMAC and HKDF (RFC 5869), from subtle. ----
  const sha256 = async (data) => new Uint8Array(await subtle.digest("SHA-256", data));

  /// HMAC-SHA256. WebCrypto refuses an empty HMAC key; HMAC pads the key with zeros to the block size, so 32 zero
  /// bytes are the same key, and they are also RFC 5869's default salt.
  async function hmac(key, data) {
    const raw = key.length ? key : new Uint8Array(32);
    const k = await subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await subtle.sign("HMAC", k, data));
  }
  const hkdfExtract = (salt, ikm) => hmac(salt, ikm);
  /// HKDF-Expand's loop (RFC 5869 §2.3), one HMAC per 32 bytes: WebCrypto's HKDF always extracts first.
  async function hkdfExpand(prk, info, length) {
    const out = new Uint8Array(length);
    let block = EMPTY;
    for (let i = 1, offset = 0; offset < length; i++, offset += 32) {
      block = await hmac(prk, concat(block, info, Uint8Array.of(i)));
      out.set(block.subarray(0, Math.min(32, length - offset)), offset);
    }
    return out;
  }
  /// HKDF-SHA256 with an empty salt, as the spec's derivations use it: WebCrypto's own HKDF.
  async function hkdf(ikm, info, length = 32) {
    const key = await subtle.importKey("raw", bytes(ikm), "HKDF", false, ["deriveBits"]);
    const params = { name: "HKDF", hash: "SHA-256", salt: EMPTY, info: utf8(info) };
    return new Uint8Array(await subtle.deriveBits(params, key, length * 8));
  }

  // ---- AES-GCM: nonce ‖ ct ‖ tag, as every sealed value in the spec is written. ----
  const aesKey = (raw, usages = ["encrypt", "decrypt"]) => subtle.importKey("raw", raw, "AES-GCM", false, usages);
  async function gcmSeal(key, nonce, plaintext, aad) {
    return new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: aad }, key, plaintext));
  }
  async function gcmOpen(key, nonce, sealed, aad, what) {
    try {
      return new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: nonce, additionalData: aad }, key, sealed));
    } catch (error) {
      return refuse(`${what} does not open`);
    }
  }
  async function seal256(rawKey, plaintext, aad) {
    const nonce = random(12);
    return concat(nonce, await gcmSeal(await aesKey(sized(rawKey, 32, "a key")), nonce, bytes(plaintext), aad));
  }
  async function open256(rawKey, wire, aad, what) {
    const data = bytes(wire);
    if (data.length < 28) refuse(`${what} is too short`);
    const key = await aesKey(sized(rawKey, 32, "a key"));
    return gcmOpen(key, data.subarray(0, 12), data.subarray(12), aad, what);
  }

  // ---- P-256 keys: private keys as CryptoKeys, public keys as their 65 raw bytes. ----
  /// A key pair as this file passes it around: `{ privateKey: CryptoKey, publicRaw: Uint8Array(65) }`.
  async function generatePair(algorithm, usages, extractable) {
    const pair = await subtle.generateKey(algorithm, extractable, usages);
    return { privateKey: pair.privateKey, publicRaw: new Uint8Array(await subtle.exportKey("raw", pair.publicKey)) };
  }
  /// A private key from its 32-byte scalar and its public point, through JWK (WebCrypto has no raw private import).
  async function importPrivate(kind, scalar, publicRaw, extractable = false) {
    const point = publicPoint(publicRaw, "a public key");
    const jwk = {
      kty: "EC", crv: "P-256", ext: extractable, d: toBase64url(sized(scalar, 32, "a private key")),
      x: toBase64url(point.subarray(1, 33)), y: toBase64url(point.subarray(33)),
    };
    const [algorithm, usages] = kind === "hpke" ? [ECDH, ["deriveBits"]] : [ECDSA, ["sign"]];
    return { privateKey: await subtle.importKey("jwk", jwk, algorithm, extractable, usages), publicRaw: point };
  }

  // ---- HPKE (RFC 9180) base mode: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM. ----
  const KEM_SUITE = concat("KEM", u16(0x0010));
  const HPKE_SUITE = concat("HPKE", u16(0x0010), u16(0x0001), u16(0x0001));
  const labeledExtract = (suite, salt, label, ikm) => hkdfExtract(salt, concat("HPKE-v1", suite, label, ikm));
  const labeledExpand = (suite, prk, label, info, length) =>
    hkdfExpand(prk, concat(u16(length), "HPKE-v1", suite, label, info), length);

  /// DH(sk, pk): the shared point's x coordinate, which is what ECDH deriveBits gives. Importing the point checks
  /// that it is on the curve (RFC 9180 §7.1.4).
  async function dh(privateKey, publicRaw) {
    let publicKey;
    try {
      publicKey = await subtle.importKey("raw", publicPoint(publicRaw, "a public key"), ECDH, false, []);
    } catch (error) {
      refuse("a public key is not a P-256 point");
    }
    return new Uint8Array(await subtle.deriveBits({ name: "ECDH", public: publicKey }, privateKey, 256));
  }
  async function kemSharedSecret(dhBytes, enc, pkRm) {
    const prk = await labeledExtract(KEM_SUITE, EMPTY, "eae_prk", dhBytes);
    return labeledExpand(KEM_SUITE, prk, "shared_secret", concat(enc, pkRm), 32);
  }

  /// An HPKE context (§5.1, base mode), with its sequence number for seal and open (§5.2) and export (§5.3).
  class HPKEContext {
    constructor(enc, key, baseNonce, exporterSecret) {
      Object.assign(this, { enc, key, baseNonce, exporterSecret, seq: 0 });
    }
    nonce() {
      const nonce = this.baseNonce.slice();
      const seq = u32(this.seq);
      for (let i = 0; i < 4; i++) nonce[8 + i] ^= seq[i];
      return nonce;
    }
    async seal(plaintext, aad = EMPTY) {
      const ct = await gcmSeal(this.key, this.nonce(), bytes(plaintext), bytes(aad));
      this.seq += 1;
      return ct;
    }
    async open(ct, aad = EMPTY) {
      const pt = await gcmOpen(this.key, this.nonce(), bytes(ct), bytes(aad), "an HPKE ciphertext");
      this.seq += 1;
      return pt;
    }
    export(exporterContext, length) {
      return labeledExpand(HPKE_SUITE, this.exporterSecret, "sec", bytes(exporterContext), length);
    }
  }
  async function keySchedule(enc, sharedSecret, info) {
    const pskIdHash = await labeledExtract(HPKE_SUITE, EMPTY, "psk_id_hash", EMPTY);
    const infoHash = await labeledExtract(HPKE_SUITE, EMPTY, "info_hash", bytes(info));
    const context = concat(Uint8Array.of(0x00), pskIdHash, infoHash);
    const secret = await labeledExtract(HPKE_SUITE, sharedSecret, "secret", EMPTY);
    const key = await labeledExpand(HPKE_SUITE, secret, "key", context, 16);
    const baseNonce = await labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12);
    const exporterSecret = await labeledExpand(HPKE_SUITE, secret, "exp", context, 32);
    return new HPKEContext(enc, await aesKey(key), baseNonce, exporterSecret);
  }
  /// SetupBaseS(pkR, info). `ephemeral` ({privateKey, publicRaw}) is for test vectors only; by default a new one.
  async function setupSender(recipientPublic, info = EMPTY, ephemeral = null) {
    const pkRm = publicPoint(recipientPublic, "the recipient's key");
    const eph = ephemeral || (await generatePair(ECDH, ["deriveBits"], false));
    const enc = eph.publicRaw;
    return keySchedule(enc, await kemSharedSecret(await dh(eph.privateKey, pkRm), enc, pkRm), info);
  }
  /// SetupBaseR(enc, skR, info); `recipient` is {privateKey, publicRaw}, since DHKEM's context needs pkRm.
  async function setupReceiver(enc, recipient, info = EMPTY) {
    const encBytes = publicPoint(enc, "enc");
    const shared = await kemSharedSecret(await dh(recipient.privateKey, encBytes), encBytes, recipient.publicRaw);
    return keySchedule(encBytes, shared, info);
  }
  /// Single-shot seal (§6.1): `{enc, ct}`.
  async function hpkeSeal(recipientPublic, plaintext, { info = EMPTY, aad = EMPTY, ephemeral = null } = {}) {
    const context = await setupSender(recipientPublic, info, ephemeral);
    return { enc: context.enc, ct: await context.seal(plaintext, aad) };
  }
  async function hpkeOpen(recipient, enc, ct, { info = EMPTY, aad = EMPTY } = {}) {
    return (await setupReceiver(enc, recipient, info)).open(ct, aad);
  }

  // ---- Epoch keys, wrapping keys, content keys, post bodies. ----
  const epochInfo = (groupId, epoch) =>
    concat("spotter-e2e-v1 epoch-key\n", id(groupId, "a group id"), "\n", epochNumber(epoch));

  /// An epoch key sealed to one device's HPKE key: `enc ‖ ct`, 113 bytes.
  async function wrapEpochKey(recipientPublic, epochKey, groupId, epoch, ephemeral = null) {
    const sealed = await hpkeSeal(recipientPublic, sized(epochKey, 32, "an epoch key"),
      { info: epochInfo(groupId, epoch), ephemeral });
    return concat(sealed.enc, sealed.ct);
  }
  async function unwrapEpochKey(recipient, wrapped, groupId, epoch) {
    const data = sized(wrapped, 113, "a wrapped epoch key");
    const key = await hpkeOpen(recipient, data.subarray(0, 65), data.subarray(65), { info: epochInfo(groupId, epoch) });
    return sized(key, 32, "an epoch key");
  }
  const wrappingKey = (epochKey) => hkdf(sized(epochKey, 32, "an epoch key"), "spotter-e2e-v1 wrap");
  const contentKeyAAD = (groupId, epoch, itemId) => concat("spotter-e2e-v1 content-key\n", id(groupId, "a group id"),
    "\n", epochNumber(epoch), "\n", id(itemId, "an item id"));

  /// A post's or blob's content key wrapped by the epoch key's wrapping key: `nonce ‖ ct ‖ tag`, 60 bytes.
  async function wrapContentKey(epochKey, contentKey, groupId, epoch, itemId) {
    return seal256(await wrappingKey(epochKey), sized(contentKey, 32, "a content key"),
      contentKeyAAD(groupId, epoch, itemId));
  }
  async function unwrapContentKey(epochKey, wrapped, groupId, epoch, itemId) {
    const key = await open256(await wrappingKey(epochKey), sized(wrapped, 60, "a wrapped content key"),
      contentKeyAAD(groupId, epoch, itemId), "a wrapped content key");
    return sized(key, 32, "a content key");
  }
  const postAAD = (groupId, postId) =>
    concat("spotter-e2e-v1 post\n", id(groupId, "a group id"), "\n", id(postId, "a post id"));

  /// A post body (a JSON object, or its UTF-8 bytes) sealed with its content key.
  function sealPost(contentKey, groupId, postId, body) {
    const given = body instanceof Uint8Array || body instanceof ArrayBuffer;
    const plaintext = given ? bytes(body) : utf8(JSON.stringify(body));
    return seal256(contentKey, plaintext, postAAD(groupId, postId));
  }
  /// The post body's object, parsed from the bytes that opened.
  async function openPost(contentKey, groupId, postId, wire) {
    const body = parseObject(await open256(contentKey, wire, postAAD(groupId, postId), "a post"), "a post body");
    if (body.v !== 1) refuse("a post body is not v 1");
    return body;
  }
  function parseObject(data, what) {
    let value;
    let text;
    try {
      text = fromUTF8(data);
      value = JSON.parse(text);
    } catch (error) {
      refuse(`${what} is not UTF-8 JSON`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) refuse(`${what} is not a JSON object`);
    checkKeys(text, what);
    return value;
  }

  /// Refuses JSON (already parsed, so well formed) whose objects repeat a key or write one with escapes. A
  /// browser keeps a repeated key's last value and Swift's decoder its first, so signed bytes with a repeat
  /// could mean one thing here and another in the app; an escape could hide a repeat.
  function checkKeys(text, what) {
    const open = []; // per open container: the keys seen, for an object; null for an array
    let keyNext = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        let end = i + 1;
        let escaped = false;
        while (text[end] !== '"') {
          if (text[end] === "\\") {
            escaped = true;
            end++;
          }
          end++;
        }
        if (keyNext) {
          const key = text.slice(i + 1, end);
          if (escaped) refuse(`${what} writes a key with escapes`);
          if (open[open.length - 1].has(key)) refuse(`${what} repeats the key ${key}`);
          open[open.length - 1].add(key);
          keyNext = false;
        }
        i = end;
      } else if (c === "{") {
        open.push(new Set());
        keyNext = true;
      } else if (c === "[") {
        open.push(null);
      } else if (c === "}" || c === "]") {
        open.pop();
        keyNext = false;
      } else if (c === ",") {
        keyNext = open[open.length - 1] instanceof Set;
      }
    }
  }

  // ---- Blobs: STREAM (Hoang, Reyhanitabar, Rogaway, Vizár 2015) over AES-256-GCM, 64 KiB chunks. ----
  const CHUNK = 65536;
  const SEALED_CHUNK = CHUNK + 16;
  const chunkNonce = (prefix, index, last) => concat(prefix, u32(index), Uint8Array.of(last ? 1 : 0));

  /// header "SPB1" ‖ u32 65536 ‖ 7-byte nonce prefix ‖ 0x00, then each chunk's ct ‖ tag. `prefix` is for tests.
  async function encryptBlob(contentKey, plaintext, prefix = random(7)) {
    const data = bytes(plaintext);
    const header = concat("SPB1", u32(CHUNK), sized(prefix, 7, "a nonce prefix"), Uint8Array.of(0));
    const key = await aesKey(sized(contentKey, 32, "a content key"), ["encrypt"]);
    const count = Math.max(1, Math.ceil(data.length / CHUNK));
    const parts = [header];
    for (let i = 0; i < count; i++) {
      const chunk = data.subarray(i * CHUNK, (i + 1) * CHUNK);
      parts.push(await gcmSeal(key, chunkNonce(prefix, i, i === count - 1), chunk, header));
    }
    return concat(...parts);
  }
  /// The blob's plaintext, or a refusal of the whole blob.
  async function decryptBlob(contentKey, blob) {
    const data = bytes(blob);
    if (data.length < 32) refuse("a blob is too short");
    const header = data.subarray(0, 16);
    if (!equal(header.subarray(0, 8), concat("SPB1", u32(CHUNK))) || header[15] !== 0) refuse("not a v1 blob header");
    const prefix = header.subarray(8, 15);
    const key = await aesKey(sized(contentKey, 32, "a content key"), ["decrypt"]);
    const parts = [];
    let offset = 16;
    for (let i = 0; ; i++) {
      const last = data.length - offset <= SEALED_CHUNK;
      const end = last ? data.length : offset + SEALED_CHUNK;
      const nonce = chunkNonce(prefix, i, last);
      parts.push(await gcmOpen(key, nonce, data.subarray(offset, end), header, `blob chunk ${i}`));
      if (last) break;
      offset = end;
    }
    return concat(...parts);
  }

  // ---- Statements: {body, signature, signer}, signed over "spotter-e2e-v1 statement\n" ‖ body bytes. ----
  const STATEMENT = "spotter-e2e-v1 statement\n";

  /// Signs `body` (an object, written once as JSON, or its bytes) as device `signer` with `signing.privateKey`.
  async function signStatement(signing, signer, body) {
    const given = body instanceof Uint8Array || body instanceof ArrayBuffer;
    const data = given ? bytes(body) : utf8(JSON.stringify(body));
    const signature = await subtle.sign(ECDSA_SHA256, signing.privateKey, concat(STATEMENT, data));
    return { body: toBase64url(data), signature: toBase64url(signature), signer };
  }
  /// Whether `statement`'s signature is `signingPublic`'s (65 raw bytes) over its body bytes.
  async function verifyStatement(statement, signingPublic) {
    const signature = fromBase64url(statement.signature);
    if (signature.length !== 64) return false;
    const key = await subtle.importKey("raw", publicPoint(signingPublic, "a signing key"), ECDSA, false, ["verify"]);
    return subtle.verify(ECDSA_SHA256, key, signature, concat(STATEMENT, fromBase64url(statement.body)));
  }
  /// SHA-256 of the body bytes, lowercase hex.
  const statementHash = async (statement) => toHex(await sha256(fromBase64url(statement.body)));
  const statementBody = (statement) => parseObject(fromBase64url(statement.body), "a statement body");

  /// What every statement of a chain must hold: v 1, its chain, the next seq, the previous hash, a time.
  async function readLink(statement, chain, seq, prev) {
    if (!statement || typeof statement.signer !== "string") refuse(`statement ${seq} has no signer`);
    const body = statementBody(statement);
    const where = `${chain} statement ${seq}`;
    if (body.v !== 1) refuse(`${where} is not v 1`);
    if (body.chain !== chain) refuse(`${where} names another chain`);
    if (body.seq !== seq) refuse(`${where} has seq ${body.seq}`);
    if (body.prev !== prev) refuse(`${where} does not follow the one before`);
    if (typeof body.at !== "number" || !Number.isFinite(body.at)) refuse(`${where} has no time`);
    return { body, hash: await statementHash(statement), where };
  }
  async function checkSignature(statement, signingPublic, where) {
    if (!(await verifyStatement(statement, fromBase64url(signingPublic)))) refuse(`${where}: the signature is wrong`);
  }

  /// Verifies a person's device chain and answers its devices, each with when it was added and revoked (`at` and
  /// seq), its live devices, its length, head and hashes. Any broken rule refuses the whole chain.
  async function verifyDeviceChain(userId, statements) {
    const chain = `device:${id(userId, "a user id")}`;
    const devices = new Map();
    const hashes = [];
    const isLive = (deviceId) => devices.has(deviceId) && devices.get(deviceId).revoked_seq === null;
    for (const [seq, statement] of statements.entries()) {
      const { body, hash, where } = await readLink(statement, chain, seq, seq === 0 ? null : hashes[seq - 1]);
      const signer = statement.signer;
      if (seq === 0 && body.kind !== "add_device") refuse(`${where} does not add a first device`);
      if (body.kind === "add_device") {
        const device = body.device || {};
        id(device.id, "a device id");
        publicPoint(fromBase64url(device.hpke_public), "a device's HPKE key");
        publicPoint(fromBase64url(device.signing_public), "a device's signing key");
        if (typeof device.name !== "string" || typeof device.recovery !== "boolean") refuse(`${where}: a bad device`);
        if (devices.has(device.id)) refuse(`${where} adds a device twice`);
        if (seq === 0 ? signer !== device.id : !isLive(signer)) refuse(`${where} is signed by a device that may not`);
        const signingPublic = seq === 0 ? device.signing_public : devices.get(signer).signing_public;
        await checkSignature(statement, signingPublic, where);
        devices.set(device.id, {
          id: device.id, name: device.name, hpke_public: device.hpke_public, signing_public: device.signing_public,
          recovery: device.recovery, added_seq: seq, added_at: body.at, revoked_seq: null, revoked_at: null,
        });
      } else if (body.kind === "revoke_device") {
        if (!isLive(body.device_id)) refuse(`${where} revokes a device that is not live`);
        const allowed = isLive(signer) && (signer !== body.device_id || devices.get(signer).recovery);
        if (!allowed) refuse(`${where} is signed by a device that may not`);
        await checkSignature(statement, devices.get(signer).signing_public, where);
        Object.assign(devices.get(body.device_id), { revoked_seq: seq, revoked_at: body.at });
      } else {
        refuse(`${where} has an unknown kind`);
      }
      hashes.push(hash);
    }
    if (hashes.length === 0) refuse("a device chain is empty");
    const all = [...devices.values()];
    return {
      userId, length: hashes.length, head: hashes[hashes.length - 1], hashes, devices: all,
      live: all.filter((device) => device.revoked_seq === null),
    };
  }

  /// Verifies a group's chain against its people's verified device chains (`deviceChains`: results of
  /// verifyDeviceChain, an array or an object by user id), and answers its owner, members and roles.
  /// A signing device must belong to the user the rule names and be live at the statement's `at`: added at or
  /// before it and not revoked until after it (group statements stay valid when a device is revoked later).
  async function verifyGroupChain(groupId, statements, deviceChains) {
    const chain = `group:${id(groupId, "a group id")}`;
    const chains = Array.isArray(deviceChains) ? deviceChains : Object.values(deviceChains || {});
    const members = new Map();
    const hashes = [];
    let owner = null;
    let history = null;
    for (const [seq, statement] of statements.entries()) {
      const { body, hash, where } = await readLink(statement, chain, seq, seq === 0 ? null : hashes[seq - 1]);
      const signedBy = (users) => users.find((user) => {
        const devices = (chains.find((c) => c.userId === user) || { devices: [] }).devices;
        const device = devices.find((d) => d.id === statement.signer);
        return device && device.added_at <= body.at && (device.revoked_at === null || body.at < device.revoked_at);
      });
      const managers = [...members].filter(([, role]) => role === "owner" || role === "admin").map(([user]) => user);
      let user = null;
      if ((seq === 0) !== (body.kind === "create")) refuse(`${where}: a group is created by its first statement only`);
      if (body.kind === "create") {
        if (typeof body.history !== "boolean") refuse(`${where} does not say whether history is shared`);
        user = signedBy([id(body.user, "a user id")]);
        members.set(body.user, "owner");
        owner = body.user;
        history = body.history;
      } else if (body.kind === "add") {
        if (members.has(id(body.user, "a user id"))) refuse(`${where} adds a member twice`);
        if (body.role !== "member" && body.role !== "admin") refuse(`${where} has an unknown role`);
        user = signedBy(managers);
        members.set(body.user, body.role);
      } else if (body.kind === "remove") {
        if (!members.has(body.user)) refuse(`${where} removes someone who is not a member`);
        if (body.user === owner) refuse(`${where} removes the owner`);
        user = signedBy([...managers, body.user]);
        members.delete(body.user);
      } else if (body.kind === "role") {
        if (!members.has(body.user) || body.user === owner) {
          refuse(`${where} changes an outsider's or the owner's role`);
        }
        if (!["member", "admin", "owner"].includes(body.role)) refuse(`${where} has an unknown role`);
        user = signedBy([owner]);
        if (body.role === "owner") {
          members.set(owner, "admin");
          owner = body.user;
        }
        members.set(body.user, body.role);
      } else {
        refuse(`${where} has an unknown kind`);
      }
      if (!user) refuse(`${where} is signed by a device that may not`);
      const signer = chains.find((c) => c.userId === user).devices.find((d) => d.id === statement.signer);
      await checkSignature(statement, signer.signing_public, where);
      hashes.push(hash);
    }
    if (hashes.length === 0) refuse("a group chain is empty");
    return {
      groupId, length: hashes.length, head: hashes[hashes.length - 1], hashes, owner, history,
      members: Object.fromEntries(members),
    };
  }

  /// Whether a verified chain still holds what a client remembered of it (`{length, head}`): no shorter, and the
  /// same statement at the remembered head. The server can refuse to show statements, not take them back.
  const chainExtends = (remembered, verified) =>
    verified.length >= remembered.length && verified.hashes[remembered.length - 1] === remembered.head;

  // ---- Safety numbers. ----
  /// 30 digits in six groups from SHA-512 over the user id and the live devices' signing keys, sorted bytewise.
  async function safetyNumber(userId, signingPublicKeys) {
    const compare = (a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
      return a.length - b.length;
    };
    const keys = signingPublicKeys.map((key) => publicPoint(key, "a signing key")).sort(compare);
    const digest = new Uint8Array(await subtle.digest("SHA-512",
      concat("spotter-e2e-v1 safety\n", id(userId, "a user id"), "\n", ...keys)));
    const groups = [];
    for (let g = 0; g < 6; g++) {
      const value = digest.subarray(g * 5, g * 5 + 5).reduce((n, byte) => n * 256 + byte, 0);
      groups.push(String(value % 100000).padStart(5, "0"));
    }
    return groups.join(" ");
  }

  // ---- Device codes: what a new device shows, and its person types on a device that approves it. ----
  const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  /// 12 symbols of Crockford's base32 from the first 60 bits of SHA-256 over the user id, the device id and the
  /// device's two public keys, as `K7QF-3MZX-9HDT`.
  async function deviceCode(userId, deviceId, hpkePublic, signingPublic) {
    const digest = await sha256(concat("spotter-e2e-v1 device-code\n", id(userId, "a user id"), "\n",
      id(deviceId, "a device id"), "\n", publicPoint(hpkePublic, "an HPKE key"),
      publicPoint(signingPublic, "a signing key")));
    let bits = "";
    for (const byte of digest.subarray(0, 8)) bits += byte.toString(2).padStart(8, "0");
    let symbols = "";
    for (let i = 0; i < 12; i++) symbols += CROCKFORD[parseInt(bits.slice(i * 5, i * 5 + 5), 2)];
    return `${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
  }
  /// A code as a person typed it, in the form `deviceCode` writes; null when it is not 12 symbols. Any case,
  /// spaces and dashes anywhere, O for 0, I or L for 1.
  function typedDeviceCode(text) {
    const symbols = String(text).toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
    if (symbols.length !== 12 || [...symbols].some((c) => !CROCKFORD.includes(c))) return null;
    return `${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
  }

  // ---- Recovery: 32 bytes shown once as 24 BIP-39 words, and the kit they open. ----
  /// The list is passed in (2048 words, an array or the file's text): the server serves it; it is not in this file.
  function wordList(list) {
    const words = typeof list === "string" ? list.split("\n").map((w) => w.trim()).filter(Boolean) : list;
    if (!Array.isArray(words) || words.length !== 2048) refuse("a BIP-39 word list has 2048 words");
    return words;
  }
  /// The 24 words of 32 bytes: their bits and SHA-256's first 8 bits (the checksum), 11 bits a word (BIP-39).
  async function recoveryWords(secret, list) {
    const words = wordList(list);
    const data = concat(sized(secret, 32, "a recovery secret"), (await sha256(bytes(secret))).subarray(0, 1));
    const bit = (i) => (data[i >> 3] >> (7 - (i & 7))) & 1;
    return Array.from({ length: 24 }, (_, w) => {
      let index = 0;
      for (let i = 0; i < 11; i++) index = index * 2 + bit(w * 11 + i);
      return words[index];
    });
  }
  /// The 32 bytes back from 24 words (an array or one string), refusing an unknown word or a wrong checksum.
  async function recoverySecret(words, list) {
    const table = wordList(list);
    const given = (typeof words === "string" ? words.trim().split(/\s+/) : words).map((w) => w.toLowerCase());
    if (given.length !== 24) refuse("a recovery phrase is 24 words");
    const data = new Uint8Array(33);
    given.forEach((word, w) => {
      const index = table.indexOf(word);
      if (index < 0) refuse(`"${word}" is not a recovery word`);
      for (let i = 0; i < 11; i++) if ((index >> (10 - i)) & 1) data[(w * 11 + i) >> 3] |= 0x80 >> ((w * 11 + i) & 7);
    });
    const secret = data.subarray(0, 32);
    if ((await sha256(secret))[0] !== data[32]) refuse("the recovery words' checksum is wrong");
    return secret.slice();
  }
  const kitAAD = (userId) => concat("spotter-e2e-v1 recovery-kit\n", id(userId, "a user id"));
  const kitKey = (secret) => hkdf(sized(secret, 32, "a recovery secret"), "spotter-e2e-v1 recovery");

  /// A recovery device's key pairs, random like a device's, as the kit's JSON holds them (base64url scalars and
  /// points). Made extractable only long enough to read the scalars.
  async function generateRecoveryKeys() {
    const scalarOf = async (pair) => fromBase64url((await subtle.exportKey("jwk", pair.privateKey)).d);
    const hpke = await generatePair(ECDH, ["deriveBits"], true);
    const signing = await generatePair(ECDSA, ["sign", "verify"], true);
    return {
      hpke_private: toBase64url(await scalarOf(hpke)), hpke_public: toBase64url(hpke.publicRaw),
      signing_private: toBase64url(await scalarOf(signing)), signing_public: toBase64url(signing.publicRaw),
    };
  }
  async function sealRecoveryKit(secret, userId, kit) {
    const json = JSON.stringify({
      hpke_private: kit.hpke_private, hpke_public: kit.hpke_public,
      signing_private: kit.signing_private, signing_public: kit.signing_public,
    });
    return seal256(await kitKey(secret), utf8(json), kitAAD(userId));
  }
  async function openRecoveryKit(secret, userId, wire) {
    const opened = await open256(await kitKey(secret), wire, kitAAD(userId), "a recovery kit");
    const kit = parseObject(opened, "a recovery kit");
    for (const field of ["hpke_private", "hpke_public", "signing_private", "signing_public"]) {
      if (typeof kit[field] !== "string") refuse(`a recovery kit has no ${field}`);
    }
    return kit;
  }
  /// A kit's keys as device keys (non-extractable CryptoKeys), to unwrap epoch keys and sign an add_device.
  async function importRecoveryKeys(kit) {
    return {
      hpke: await importPrivate("hpke", fromBase64url(kit.hpke_private), fromBase64url(kit.hpke_public)),
      signing: await importPrivate("signing", fromBase64url(kit.signing_private), fromBase64url(kit.signing_public)),
    };
  }

  // ---- Device keys: non-extractable CryptoKeys, kept in IndexedDB (CryptoKeys are structured-cloneable). ----
  /// `{hpke: {privateKey, publicRaw}, signing: {privateKey, publicRaw}}`; the private halves can't be exported.
  async function generateDeviceKeys() {
    return {
      hpke: await generatePair(ECDH, ["deriveBits"], false),
      signing: await generatePair(ECDSA, ["sign", "verify"], false),
    };
  }
  function keyStore(mode, act) {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open("spotter-e2e", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const db = opening.result;
        const transaction = db.transaction("keys", mode);
        const request = act(transaction.objectStore("keys"));
        transaction.oncomplete = () => {
          db.close();
          resolve(request.result);
        };
        transaction.onerror = () => {
          db.close();
          reject(transaction.error);
        };
      };
    });
  }
  /// Keeps `keys` under `slot` ("device" unless a page keeps more than one set), and answers them.
  const saveDeviceKeys = async (keys, slot = "device") => {
    await keyStore("readwrite", (store) => store.put(keys, slot));
    return keys;
  };
  /// The keys kept under `slot`, or null.
  const loadDeviceKeys = async (slot = "device") => (await keyStore("readonly", (store) => store.get(slot))) || null;
  const forgetDeviceKeys = async (slot = "device") => {
    await keyStore("readwrite", (store) => store.delete(slot));
  };

  window.SpotterE2E = Object.freeze({
    E2EError,
    // bytes
    utf8, fromUTF8, toBase64url, fromBase64url, toHex, fromHex, concat, randomBytes: random,
    // HPKE, RFC 9180 base mode
    hpke: Object.freeze({ setupSender, setupReceiver, seal: hpkeSeal, open: hpkeOpen }),
    importPrivateKey: importPrivate,
    // groups' keys and content
    wrapEpochKey, unwrapEpochKey, wrappingKey, wrapContentKey, unwrapContentKey, sealPost, openPost,
    encryptBlob, decryptBlob,
    // statements and chains
    signStatement, verifyStatement, statementHash, statementBody, verifyDeviceChain, verifyGroupChain, chainExtends,
    safetyNumber, deviceCode, typedDeviceCode,
    // recovery
    recoveryWords, recoverySecret, generateRecoveryKeys, sealRecoveryKit, openRecoveryKit, importRecoveryKeys,
    // device keys
    generateDeviceKeys, saveDeviceKeys, loadDeviceKeys, forgetDeviceKeys,
  });
})();
