"""The browser's end-to-end crypto (`/assets/e2e.js`, docs/encryption.md) in real Chromium, under the app's CSP.

The page is a signed-in app page; the test adds `/assets/e2e.js` to it as any page would (a same-origin script,
which the CSP allows) and drives `window.SpotterE2E` through the driver's async scripts. What the browser makes
is checked by code nobody here wrote: RFC 9180's own vectors, pyhpke (HPKE), `cryptography` (HKDF, AES-GCM,
ECDSA), and `mnemonic` (BIP-39, with its English list, which the test hands the page). Statements and chains
are written by Python with `cryptography`'s keys, so the chain verifiers judge statements they did not make.

Run through scripts/browser-test.
"""

import base64
import hashlib
import json
import os
import pathlib
import unittest
import time
import uuid

import mnemonic
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

from browser_support import BrowserStory, browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
RFC_VECTORS = ROOT / "Tests/Vectors/rfc9180-a3-1.json"
SPOTTER_VECTORS = ROOT / "Tests/Vectors/spotter-e2e-v1.json"
# What the browser made, for SpotterE2E's tests to open (`BrowserVectorTests`); rewritten with
# SPOTTER_E2E_WRITE_BROWSER_VECTORS=1.
BROWSER_VECTORS = ROOT / "Tests/Vectors/e2e-browser-v1.json"
# Device codes SpotterE2E worked out (DeviceCodeTests), for the browser to work out the same.
DEVICE_CODES = ROOT / "Tests/Vectors/device-codes-v1.json"
SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)

# Runs `body` as an async function of (E = window.SpotterE2E, args); answers {ok: value} or {error: "Name: message"}.
RUN = """
var done = arguments[arguments.length - 1];
var args = Array.prototype.slice.call(arguments, 0, -1);
var E = window.SpotterE2E, b64 = E && E.toBase64url, unb64 = E && E.fromBase64url;
(async function (E, args) { %s })(E, args).then(
  function (value) { done({ ok: value === undefined ? null : value }); },
  function (error) { done({ error: String(error && error.name) + ": " + String(error && error.message) }); });
"""

# Adds /assets/e2e.js to the page as a page of the app would, and answers whether SpotterE2E is there.
LOAD = """
var done = arguments[arguments.length - 1];
if (window.SpotterE2E) return done(true);
var script = document.createElement("script");
script.src = "/assets/e2e.js";
script.onload = function () { done(!!window.SpotterE2E); };
script.onerror = function () { done(false); };
document.head.appendChild(script);
"""


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_id():
    return str(uuid.uuid4())


def hkdf(ikm, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(ikm)


def public_raw(key):
    public = key.public_key() if hasattr(key, "public_key") else key
    return public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class Device:
    """A device as Python plays it: two `cryptography` P-256 keys and the device object the chains carry."""

    def __init__(self, name="a phone", recovery=False):
        self.id = new_id()
        self.hpke = ec.generate_private_key(ec.SECP256R1())
        self.signing = ec.generate_private_key(ec.SECP256R1())
        self.object = {"id": self.id, "name": name, "hpke_public": b64(public_raw(self.hpke)),
                       "signing_public": b64(public_raw(self.signing)), "recovery": recovery}

    def sign(self, body, signer=None):
        """A statement of `body` (a dict, or the exact bytes) signed by this device (named `signer`, to forge
        one); r ‖ s, as the spec says."""
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        der = self.signing.sign(b"spotter-e2e-v1 statement\n" + data, ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        return {"body": b64(data), "signature": b64(r.to_bytes(32, "big") + s.to_bytes(32, "big")),
                "signer": signer or self.id}


class Chain:
    """Writes a chain's statements in order: seq and prev filled in, each signed by the device given."""

    def __init__(self, name):
        self.name = name
        self.statements = []

    def head(self):
        return hashlib.sha256(unb64(self.statements[-1]["body"])).hexdigest() if self.statements else None

    def body(self, kind, **fields):
        return dict({"v": 1, "chain": self.name, "seq": len(self.statements), "prev": self.head(),
                     "at": 1_780_000_000 + len(self.statements), "kind": kind}, **fields)

    def add(self, by, kind, **fields):
        self.statements.append(by.sign(self.body(kind, **fields)))
        return self


class E2ECryptoStory(BrowserStory):
    @classmethod
    def setUpClass(cls):
        # One person in one browser for every check: each test runs scripts on the same signed-in page.
        cls.driver = browser()
        cls.driver.set_script_timeout(120)
        cls.checks = 0

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        if not getattr(type(self), "signed_up", False):
            self.sign_up(self.driver, f"e2e_{uuid.uuid4().hex[:6]}")
            type(self).signed_up = True
        self.load()

    def load(self):
        if not self.driver.execute_async_script(LOAD):
            self.fail("/assets/e2e.js did not load on an app page")

    def js(self, body, *args):
        result = self.driver.execute_async_script(RUN % body, *args)
        if "error" in result:
            self.fail(f"the page's script threw {result['error']}")
        return result["ok"]

    def js_error(self, body, *args):
        """The error `body` throws (as "Name: message"), or fails if it answers."""
        result = self.driver.execute_async_script(RUN % body, *args)
        self.assertIn("error", result, f"expected a refusal, got {result.get('ok')!r}")
        return result["error"]

    def check(self, condition, message):
        type(self).checks += 1
        self.assertTrue(condition, message)

    def check_equal(self, a, b, message):
        type(self).checks += 1
        self.assertEqual(a, b, message)

    def refused(self, body, *args, what):
        """`body` must throw an E2EError: the spec's refusal, not a crash."""
        error = self.js_error(body, *args)
        type(self).checks += 1
        self.assertTrue(error.startswith("E2EError"), f"{what}: refused with {error}, not an E2EError")

    # --- the page -----------------------------------------------------------------------------------------

    def test_served_under_the_apps_csp(self):
        csp = self.js("var r = await fetch('/assets/e2e.js'); var p = await fetch(location.href);"
                      "return [r.status, r.headers.get('content-type'), p.headers.get('content-security-policy')];")
        self.check_equal(csp[0], 200, "/assets/e2e.js is served")
        self.check(csp[1].startswith("text/javascript"), "as JavaScript")
        self.check("script-src 'self'" in csp[2] and "unsafe" not in csp[2], f"the page's CSP is the app's: {csp[2]}")
        self.no_script_errors(self.driver)

    # --- HPKE ---------------------------------------------------------------------------------------------

    def test_rfc9180_a31_vectors(self):
        vector = json.loads(RFC_VECTORS.read_text())
        encryption, export = vector["encryptions"][0], vector["exports"][0]
        result = self.js("""
            var v = args[0], h = E.fromHex, x = E.toHex, e = v.encryptions[0];
            var eph = await E.importPrivateKey("hpke", h(v.skEm), h(v.pkEm));
            var rec = await E.importPrivateKey("hpke", h(v.skRm), h(v.pkRm));
            var sender = await E.hpke.setupSender(h(v.pkRm), h(v.info), eph);
            var ct = await sender.seal(h(e.pt), h(e.aad));
            var single = await E.hpke.seal(h(v.pkRm), h(e.pt), { info: h(v.info), aad: h(e.aad), ephemeral: eph });
            var receiver = await E.hpke.setupReceiver(h(v.enc), rec, h(v.info));
            return { enc: x(sender.enc), ct: x(ct), single_enc: x(single.enc), single_ct: x(single.ct),
                     pt: x(await receiver.open(h(e.ct), h(e.aad))),
                     open: x(await E.hpke.open(rec, h(v.enc), h(e.ct), { info: h(v.info), aad: h(e.aad) })),
                     sender_export: x(await sender.export(h(v.exports[0].context), v.exports[0].length)),
                     receiver_export: x(await receiver.export(h(v.exports[0].context), v.exports[0].length)) };
            """, vector)
        self.check_equal(result["enc"], vector["enc"], "enc is the vector's")
        self.check_equal(result["ct"], encryption["ct"], "ct is the vector's")
        self.check_equal((result["single_enc"], result["single_ct"]), (vector["enc"], encryption["ct"]),
                         "single-shot seal gives the same")
        self.check_equal(result["pt"], encryption["pt"], "the receiver opens the vector's ct")
        self.check_equal(result["open"], encryption["pt"], "single-shot open too")
        self.check_equal(result["sender_export"], export["value"], "the sender's export is the vector's")
        self.check_equal(result["receiver_export"], export["value"], "the receiver's export is the vector's")
        self.refused("""var v = args[0], h = E.fromHex, e = v.encryptions[0];
            var rec = await E.importPrivateKey("hpke", h(v.skRm), h(v.pkRm));
            return E.hpke.open(rec, h(v.enc), h(e.ct), { info: h(v.info), aad: h("00") });""", vector,
                     what="HPKE open with another aad")

    def test_pyhpke_opens_what_the_browser_wraps_and_the_browser_opens_what_pyhpke_seals(self):
        group, epoch_key = new_id(), os.urandom(32)
        info = f"spotter-e2e-v1 epoch-key\n{group}\n7".encode()
        # Browser → pyhpke: the page wraps an epoch key to a key pair this test made.
        recipient = ec.generate_private_key(ec.SECP256R1())
        wrapped = unb64(self.js("return b64(await E.wrapEpochKey(unb64(args[0]), unb64(args[1]), args[2], 7));",
                                b64(public_raw(recipient)), b64(epoch_key), group))
        self.check_equal(len(wrapped), 113, "a wrapped epoch key is enc ‖ ct, 113 bytes")
        context = SUITE.create_recipient_context(wrapped[:65], KEMKey.from_pyca_cryptography_key(recipient), info=info)
        self.check_equal(context.open(wrapped[65:]), epoch_key, "pyhpke opens the browser's wrapped epoch key")
        # pyhpke → browser: the page makes device keys; pyhpke seals an epoch key to its HPKE public key.
        public = unb64(self.js("window.__device = await E.generateDeviceKeys(); return b64(__device.hpke.publicRaw);"))
        device_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
        enc, sender = SUITE.create_sender_context(KEMKey.from_pyca_cryptography_key(device_public), info=info)
        sealed = sender.seal(epoch_key)
        opened = self.js("return b64(await E.unwrapEpochKey(__device.hpke, unb64(args[0]), args[1], 7));",
                         b64(enc + sealed), group)
        self.check_equal(unb64(opened), epoch_key, "the browser opens pyhpke's sealed epoch key")
        exported = self.js("var r = await E.hpke.setupReceiver(unb64(args[0]), __device.hpke, E.utf8(args[1]));"
                           "return b64(await r.export(E.utf8('ctx'), 48));", b64(enc), info.decode())
        self.check_equal(unb64(exported), sender.export(b"ctx", 48), "export agrees with pyhpke's (48 bytes)")
        self.refused("return E.unwrapEpochKey(__device.hpke, unb64(args[0]), args[1], 8);", b64(enc + sealed), group,
                     what="an epoch key under another epoch")
        self.refused("return E.unwrapEpochKey(__device.hpke, unb64(args[0]), args[1], 7);", b64(enc + sealed), new_id(),
                     what="an epoch key under another group")

    # --- content keys, posts, blobs -----------------------------------------------------------------------

    def test_content_keys_and_posts_read_independently(self):
        group, post, epoch_key, content_key = new_id(), new_id(), os.urandom(32), os.urandom(32)
        body = {"v": 1, "text": "Deadlift day 🏋️", "workout": None, "children": [{"id": new_id(), "name": "Lou"}],
                "media": []}
        made = self.js("""var [ek, ck, g, p, body] = args;
            return { wrapping: b64(await E.wrappingKey(unb64(ek))),
                     wrapped: b64(await E.wrapContentKey(unb64(ek), unb64(ck), g, 3, p)),
                     post: b64(await E.sealPost(unb64(ck), g, p, body)) };""",
                       b64(epoch_key), b64(content_key), group, post, body)
        wrapping = hkdf(epoch_key, b"spotter-e2e-v1 wrap")
        self.check_equal(unb64(made["wrapping"]), wrapping, "the wrapping key is HKDF as cryptography computes it")
        wrapped = unb64(made["wrapped"])
        self.check_equal(len(wrapped), 60, "a wrapped content key is 60 bytes")
        aad = f"spotter-e2e-v1 content-key\n{group}\n3\n{post}".encode()
        self.check_equal(AESGCM(wrapping).decrypt(wrapped[:12], wrapped[12:], aad), content_key,
                         "cryptography unwraps the content key")
        sealed = unb64(made["post"])
        plain = AESGCM(content_key).decrypt(sealed[:12], sealed[12:], f"spotter-e2e-v1 post\n{group}\n{post}".encode())
        self.check_equal(json.loads(plain), body, "cryptography opens the post body")
        # And back: what Python seals, the browser opens.
        nonce = os.urandom(12)
        python_wrapped = nonce + AESGCM(wrapping).encrypt(nonce, content_key, aad)
        python_post = nonce + AESGCM(content_key).encrypt(nonce, json.dumps(body).encode(),
                                                          f"spotter-e2e-v1 post\n{group}\n{post}".encode())
        opened = self.js("""var [ek, w, g, p, sealed] = args;
            var ck = await E.unwrapContentKey(unb64(ek), unb64(w), g, 3, p);
            return { ck: b64(ck), post: await E.openPost(ck, g, p, unb64(sealed)) };""",
                         b64(epoch_key), b64(python_wrapped), group, post, b64(python_post))
        self.check_equal(unb64(opened["ck"]), content_key, "the browser unwraps Python's content key")
        self.check_equal(opened["post"], body, "the browser opens Python's post")
        changed = bytearray(python_post)
        changed[20] ^= 1
        for script, values, what in [
            ("return E.unwrapContentKey(unb64(args[0]), unb64(args[1]), args[2], 4, args[3]);",
             (b64(epoch_key), b64(python_wrapped), group, post), "a content key under another epoch"),
            ("return E.unwrapContentKey(unb64(args[0]), unb64(args[1]), args[2], 3, args[3]);",
             (b64(epoch_key), b64(python_wrapped), group, new_id()), "a content key for another item"),
            ("return E.openPost(unb64(args[0]), args[1], args[2], unb64(args[3]));",
             (b64(content_key), group, new_id(), b64(python_post)), "a post under another id"),
            ("return E.openPost(unb64(args[0]), args[1], args[2], unb64(args[3]));",
             (b64(content_key), group, post, b64(bytes(changed))), "a post with a changed byte"),
        ]:
            self.refused(script, *values, what=what)

    def test_blobs_round_trip_at_every_edge(self):
        sizes = [0, 1, 65535, 65536, 65537, 1_000_003]
        result = self.js("""var ck = E.randomBytes(32), out = [];
            for (var n of args[0]) {
              var plain = new Uint8Array(n);
              for (var i = 0; i < n; i += 65536) plain.set(E.randomBytes(Math.min(65536, n - i)), i);
              var blob = await E.encryptBlob(ck, plain), back = await E.decryptBlob(ck, blob);
              out.push([n, blob.length, back.length === n && back.every(function (b, i) { return b === plain[i]; })]);
            }
            return out;""", sizes)
        for size, length, same in result:
            chunks = max(1, -(-size // 65536))
            self.check_equal(length, 16 + size + 16 * chunks, f"a {size}-byte blob is header + chunks + tags")
            self.check(same, f"a {size}-byte blob opens to itself")

    def test_a_blob_is_refused_whole(self):
        # Three chunks (the last short) from the page, and a second blob under the same key.
        key, plain = os.urandom(32), os.urandom(2 * 65536 + 100)
        blobs = self.js("return [b64(await E.encryptBlob(unb64(args[0]), unb64(args[1]))),"
                        "        b64(await E.encryptBlob(unb64(args[0]), unb64(args[1])))];", b64(key), b64(plain))
        blob, other = unb64(blobs[0]), unb64(blobs[1])
        self.check(blob[:16] != other[:16], "each blob has its own nonce prefix")
        c = [16, 16 + 65552, 16 + 2 * 65552]  # where chunks 0, 1, 2 start
        chunk = lambda b, i: b[c[i]:c[i] + 65552] if i < 2 else b[c[2]:]
        changed = bytearray(blob)
        changed[c[1] + 5] ^= 0x80
        header_changed = bytearray(blob)
        header_changed[10] ^= 1
        cases = {
            "a changed byte": bytes(changed),
            "a changed nonce prefix in the header": bytes(header_changed),
            "chunks 0 and 1 swapped": blob[:16] + chunk(blob, 1) + chunk(blob, 0) + chunk(blob, 2),
            "another blob's chunk": blob[:16] + chunk(blob, 0) + chunk(other, 1) + chunk(blob, 2),
            "cut at a chunk boundary": blob[:c[2]],
            "cut at the first chunk boundary": blob[:c[1]],
            "a trailing byte": blob + b"\x00",
            "a trailing 16 bytes": blob + bytes(16),
            "a repeated last chunk": blob + chunk(blob, 2),
            "a last chunk cut short": blob[:-1],
            "a bad magic": b"SPB2" + blob[4:],
            "another chunk size": blob[:4] + (32768).to_bytes(4, "big") + blob[8:],
            "a header's last byte not zero": blob[:15] + b"\x01" + blob[16:],
            "only a header": blob[:16],
            "nothing": b"",
        }
        for what, bad in cases.items():
            self.refused("return E.decryptBlob(unb64(args[0]), unb64(args[1]));", b64(key), b64(bad), what=what)
        self.refused("return E.decryptBlob(E.randomBytes(32), unb64(args[0]));", b64(blob), what="another key")

    def test_python_reads_a_browser_blob_chunk_by_chunk(self):
        key, plain = os.urandom(32), os.urandom(3 * 65536 + 4321)
        blob = unb64(self.js("return b64(await E.encryptBlob(unb64(args[0]), unb64(args[1])));", b64(key), b64(plain)))
        # The spec, read again: header, then 65,552-byte chunks; the remainder is the last, with the last flag.
        header, rest = blob[:16], blob[16:]
        self.check_equal(header[:4], b"SPB1", "the header starts SPB1")
        self.check_equal(int.from_bytes(header[4:8], "big"), 65536, "then the chunk size")
        self.check_equal(header[15], 0, "and ends with 0x00")
        prefix, out, index = header[8:15], b"", 0
        while True:
            last = len(rest) <= 65552
            sealed, rest = (rest, b"") if last else (rest[:65552], rest[65552:])
            nonce = prefix + index.to_bytes(4, "big") + (b"\x01" if last else b"\x00")
            out += AESGCM(key).decrypt(nonce, sealed, header)
            index += 1
            if last:
                break
        self.check_equal(index, 4, "four chunks")
        self.check(out == plain, "cryptography's AES-GCM reads the browser's blob")

    # --- statements and chains ----------------------------------------------------------------------------

    def test_statements_signed_in_the_browser_verify_in_python(self):
        body = {"v": 1, "chain": f"device:{new_id()}", "seq": 0, "prev": None, "at": 1780000000,
                "kind": "add_device", "device": {"id": new_id(), "name": "Ana's laptop ✓"}}
        made = self.js("""var keys = await E.generateDeviceKeys();
            var s = await E.signStatement(keys.signing, "dev", args[0]);
            return { s: s, public: b64(keys.signing.publicRaw), hash: await E.statementHash(s),
                     verified: await E.verifyStatement(s, keys.signing.publicRaw),
                     other: await E.verifyStatement(Object.assign({}, s, { body: b64(E.utf8("{}")) }),
                                                    keys.signing.publicRaw) };""", body)
        statement, data = made["s"], unb64(made["s"]["body"])
        self.check_equal(json.loads(data), body, "the body is the object's JSON")
        signature = unb64(statement["signature"])
        self.check_equal(len(signature), 64, "a signature is r ‖ s, 64 bytes")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(made["public"]))
        key.verify(der, b"spotter-e2e-v1 statement\n" + data, ec.ECDSA(hashes.SHA256()))  # raises if wrong
        self.check(True, "cryptography verifies the browser's signature")
        with self.assertRaises(InvalidSignature):
            key.verify(der, data, ec.ECDSA(hashes.SHA256()))
        self.check_equal(made["hash"], hashlib.sha256(data).hexdigest(), "the hash is SHA-256 of the body, hex")
        self.check(made["verified"] and not made["other"], "the browser verifies its own, not another body")

    def verify_device_chain(self, user, chain):
        return self.js("return E.verifyDeviceChain(args[0], args[1]);", user, chain.statements)

    def device_chain_refused(self, user, chain, what):
        self.refused("return E.verifyDeviceChain(args[0], args[1]);", user, chain.statements, what=what)

    def test_device_chains(self):
        user = new_id()
        phone, laptop, recovery, stranger = Device("phone"), Device("laptop"), Device("recovery", True), Device()
        name = f"device:{user}"
        chain = (Chain(name).add(phone, "add_device", device=phone.object)
                 .add(phone, "add_device", device=recovery.object)
                 .add(phone, "add_device", device=laptop.object)
                 .add(laptop, "revoke_device", device_id=phone.id))
        verified = self.verify_device_chain(user, chain)
        self.check_equal([d["id"] for d in verified["live"]], [recovery.id, laptop.id], "the live devices")
        self.check_equal((verified["length"], verified["head"]), (4, chain.head()), "length and head")
        remembered = {"length": 3, "head": verified["hashes"][2]}
        self.check(self.js("return E.chainExtends(args[0], args[1]);", remembered, verified),
                   "a longer chain extends what was remembered")
        shorter = Chain(name)
        shorter.statements = chain.statements[:2]
        self.check(not self.js("return E.chainExtends(args[0], args[1]);", remembered,
                               self.verify_device_chain(user, shorter)), "a shorter chain does not")
        # The recovery device signs for a new device when every other is lost, and may revoke itself.
        recovered = Chain(name)
        recovered.statements = list(chain.statements)
        fresh = Device("new phone")
        recovered.add(recovery, "add_device", device=fresh.object).add(recovery, "revoke_device", device_id=laptop.id)
        recovered.add(recovery, "revoke_device", device_id=recovery.id)
        self.check_equal([d["id"] for d in self.verify_device_chain(user, recovered)["live"]], [fresh.id],
                         "the recovery device adds a new phone and revokes the rest")

        def variant(*steps):
            c = Chain(name)
            for by, kind, fields in steps:
                c.add(by, kind, **fields)
            return c

        first = (phone, "add_device", {"device": phone.object})
        self.device_chain_refused(user, variant((laptop, "add_device", {"device": phone.object})),
                                  "statement 0 signed by another device")
        self.device_chain_refused(user, variant(first, (laptop, "add_device", {"device": laptop.object})),
                                  "a new device signing its own add")
        self.device_chain_refused(user, variant(first, (stranger, "add_device", {"device": laptop.object})),
                                  "an add signed by a stranger")
        self.device_chain_refused(user, variant(first, (phone, "add_device", {"device": phone.object})),
                                  "a device added twice")
        self.device_chain_refused(user, variant(first, (phone, "add_device", {"device": laptop.object}),
                                                (phone, "revoke_device", {"device_id": phone.id})),
                                  "a device revoking itself")
        self.device_chain_refused(user, variant(first, (phone, "add_device", {"device": laptop.object}),
                                                (laptop, "revoke_device", {"device_id": phone.id}),
                                                (phone, "add_device", {"device": stranger.object})),
                                  "a revoked device signing")
        self.device_chain_refused(user, variant(first, (phone, "revoke_device", {"device_id": laptop.id})),
                                  "revoking a device never added")
        self.device_chain_refused(user, variant(first, (phone, "rename", {})), "an unknown kind")
        self.device_chain_refused(new_id(), chain, "another person's chain")
        self.device_chain_refused(user, Chain(name), "an empty chain")
        for what, change in [("a wrong seq", {"seq": 5}), ("a wrong prev", {"prev": "00" * 32}),
                             ("another chain", {"chain": f"device:{new_id()}"}), ("v 2", {"v": 2}),
                             ("no time", {"at": None})]:
            c = variant(first)
            c.statements.append(phone.sign(dict(c.body("add_device", device=laptop.object), **change)))
            self.device_chain_refused(user, c, what)
        # Signed bytes that repeat a key (browsers keep the last value, Swift the first) or hide a key behind
        # escapes mean two things: refused, however well signed.
        for what, text in [("a repeated key", '"kind":"revoke_device","kind":"add_device"'),
                           ("a key written with escapes", '"kin\\u0064":"add_device"')]:
            body = json.dumps(variant(first).body("add_device", device=laptop.object), separators=(",", ":"))
            c = variant(first)
            c.statements.append(phone.sign(body.replace('"kind":"add_device"', text).encode()))
            self.device_chain_refused(user, c, what)
        forged = variant(first, (phone, "add_device", {"device": laptop.object}))
        forged.statements[1] = dict(forged.statements[1], body=b64(unb64(forged.statements[1]["body"]) + b" "))
        self.device_chain_refused(user, forged, "a body changed after signing")
        misnamed = variant(first, (phone, "add_device", {"device": laptop.object}))
        misnamed.statements.append(stranger.sign(misnamed.body("add_device", device=stranger.object), signer=phone.id))
        self.device_chain_refused(user, misnamed, "a statement naming a live signer it was not signed by")
        reordered = variant(first, (phone, "add_device", {"device": laptop.object}),
                            (phone, "add_device", {"device": stranger.object}))
        reordered.statements[1], reordered.statements[2] = reordered.statements[2], reordered.statements[1]
        self.device_chain_refused(user, reordered, "statements out of order")

    def test_group_chains(self):
        people = {name: (new_id(), Device(name)) for name in ("ana", "bo", "cy", "dee")}
        chains = []
        for user, device in people.values():
            chains.append(self.verify_device_chain(user, Chain(f"device:{user}").add(device, "add_device",
                                                                                      device=device.object)))
        (ana, ana_d), (bo, bo_d), (cy, cy_d), (dee, dee_d) = people.values()
        group = new_id()
        name = f"group:{group}"

        def verify(chain):
            return self.js("return E.verifyGroupChain(args[0], args[1], args[2]);", group, chain.statements, chains)

        def refused(chain, what):
            self.refused("return E.verifyGroupChain(args[0], args[1], args[2]);", group, chain.statements, chains,
                         what=what)

        base = lambda: (Chain(name).add(ana_d, "create", user=ana, history=True)
                        .add(ana_d, "add", user=bo, role="admin"))
        chain = (base().add(bo_d, "add", user=cy, role="member").add(cy_d, "remove", user=cy)
                 .add(bo_d, "add", user=dee, role="member").add(ana_d, "role", user=bo, role="owner")
                 .add(bo_d, "role", user=dee, role="admin").add(dee_d, "remove", user=ana))
        verified = verify(chain)
        self.check_equal(verified["members"], {bo: "owner", dee: "admin"}, "members and roles after every kind")
        self.check_equal((verified["owner"], verified["history"], verified["length"]), (bo, True, 8),
                         "owner, history, length")
        refused(base().add(cy_d, "add", user=dee, role="member"), "a member who is no admin adding")
        refused(base().add(ana_d, "add", user=cy, role="member").add(cy_d, "add", user=dee, role="member"),
                "a plain member adding")
        refused(base().add(ana_d, "add", user=cy, role="member").add(cy_d, "remove", user=bo),
                "a member removing an admin")
        refused(base().add(bo_d, "role", user=bo, role="owner"), "an admin making themself owner")
        refused(base().add(ana_d, "add", user=cy, role="member").add(bo_d, "role", user=cy, role="admin"),
                "an admin changing a role")
        refused(base().add(ana_d, "add", user=bo, role="member"), "adding a member twice")
        refused(base().add(ana_d, "add", user=cy, role="king"), "an unknown role")
        refused(base().add(ana_d, "remove", user=cy), "removing someone who is not a member")
        refused(base().add(bo_d, "remove", user=ana), "removing the owner")
        refused(base().add(ana_d, "create", user=ana, history=False), "a second create")
        refused(Chain(name).add(bo_d, "create", user=ana, history=True), "a create signed for someone else")
        refused(Chain(name).add(ana_d, "add", user=bo, role="admin"), "a chain that does not start with create")
        refused(Chain(name).add(ana_d, "create", user=ana, history="yes"), "history not a bool")
        stranger = Device()
        refused(Chain(name).add(ana_d, "create", user=ana, history=True).add(stranger, "add", user=cy, role="member"),
                "a device of nobody's chain")
        # A device revoked later still signed what it signed before; after the revocation it may not.
        ana_laptop = Device("laptop")
        ana_chain = (Chain(f"device:{ana}").add(ana_d, "add_device", device=ana_d.object)
                     .add(ana_d, "add_device", device=ana_laptop.object)
                     .add(ana_laptop, "revoke_device", device_id=ana_d.id))
        chains[0] = self.verify_device_chain(ana, ana_chain)  # ana_d revoked at 1_780_000_002
        early = Chain(name).add(ana_d, "create", user=ana, history=False)  # at 1_780_000_000
        self.check_equal(verify(early)["owner"], ana, "a statement from before its device's revocation holds")
        late = lambda by: (Chain(name).add(ana_laptop, "create", user=ana, history=False, at=1_780_000_003)
                           .add(by, "add", user=bo, role="member", at=1_780_000_005))
        self.check_equal(verify(late(ana_laptop))["members"], {ana: "owner", bo: "member"}, "the live laptop adds")
        refused(late(ana_d), "a revoked device signing after its revocation")
        refused(Chain(name).add(ana_laptop, "create", user=ana, history=False, at=1_780_000_000),
                "a device signing before it was added")

    def test_safety_numbers(self):
        user = new_id()
        keys = [public_raw(ec.generate_private_key(ec.SECP256R1())) for _ in range(3)]
        digest = hashlib.sha512(f"spotter-e2e-v1 safety\n{user}\n".encode() + b"".join(sorted(keys))).digest()
        expected = " ".join(f"{int.from_bytes(digest[i:i + 5], 'big') % 100000:05d}" for i in range(0, 30, 5))
        numbers = self.js("return [await E.safetyNumber(args[0], args[1].map(unb64)),"
                          "        await E.safetyNumber(args[0], args[1].slice().reverse().map(unb64)),"
                          "        await E.safetyNumber(args[0], args[1].slice(1).map(unb64))];",
                          user, [b64(k) for k in keys])
        self.check_equal(numbers[0], expected, "the safety number, as Python reads the spec")
        self.check_equal(numbers[1], expected, "whatever order the devices come in")
        self.check(numbers[2] != expected and len(numbers[2]) == 35, "another set of devices changes it")

    def test_device_codes(self):
        """The code a new device shows (docs/encryption.md, "Approving a new device"): the browser works out the
        codes SpotterE2E wrote, and for fresh keys the one Python works out from the spec; it reads a typed code
        as Swift does."""
        def python_code(user, device):
            digest = hashlib.sha256(f"spotter-e2e-v1 device-code\n{user}\n{device['id']}\n".encode()
                                    + unb64(device["hpke_public"]) + unb64(device["signing_public"])).digest()
            top = int.from_bytes(digest[:8], "big") >> 4
            symbols = "".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(top >> (55 - 5 * i)) & 31] for i in range(12))
            return f"{symbols[:4]}-{symbols[4:8]}-{symbols[8:]}"

        cases = json.loads(DEVICE_CODES.read_text())["cases"]
        code = "return E.deviceCode(args[0], args[1].id, unb64(args[1].hpke_public), unb64(args[1].signing_public));"
        for case in cases:
            self.check_equal(self.js(code, case["user_id"], case["device"]), case["code"], "SpotterE2E's device code")
            self.check_equal(python_code(case["user_id"], case["device"]), case["code"], "Python reads it the same")
        device, user = Device("a new laptop"), new_id()
        expected = python_code(user, device.object)
        self.check_equal(self.js(code, user, device.object), expected, "fresh keys: the browser's code is Python's")
        other = Device("the server's keys")
        swapped = dict(device.object, hpke_public=other.object["hpke_public"])
        self.check(self.js(code, user, swapped) != expected, "another key gives another code")
        typed = self.js("""var [c] = args;
            return [E.typedDeviceCode(c.toLowerCase().replace(/-/g, " ")),
                    E.typedDeviceCode(c.replace(/0/g, "O").replace(/1/g, "l")),
                    E.typedDeviceCode(c.slice(1)), E.typedDeviceCode("UUUU-UUUU-UUUU")];""", expected)
        self.check_equal(typed, [expected, expected, None, None], "typed codes read as Swift reads them")
        self.refused(code, "not a user", device.object, what="a code for a user id that is not one")

    # --- recovery -----------------------------------------------------------------------------------------

    def test_recovery_words_are_bip39(self):
        words = (pathlib.Path(mnemonic.__file__).parent / "wordlist/english.txt").read_text()
        reference = mnemonic.Mnemonic("english")
        for secret in (bytes(32), b"\xff" * 32, os.urandom(32), os.urandom(32)):
            answer = self.js("var w = await E.recoveryWords(unb64(args[0]), args[1]);"
                             "return [w.join(' '), b64(await E.recoverySecret(w.join('  ').toUpperCase(), args[1]))];",
                             b64(secret), words)
            self.check_equal(answer[0], reference.to_mnemonic(secret), "the words are mnemonic's to_mnemonic")
            self.check_equal(unb64(answer[1]), secret, "and the words give the bytes back")
        phrase = reference.to_mnemonic(os.urandom(32)).split()
        # The last word holds 3 bits of the secret and the 8-bit checksum: flipping its lowest bit breaks only the sum.
        last = reference.wordlist[reference.wordlist.index(phrase[23]) ^ 1]
        self.refused("return E.recoverySecret(args[0], args[1]);", phrase[:23] + [last], words, what="a wrong checksum")
        self.refused("return E.recoverySecret(args[0], args[1]);", phrase[:23] + ["spotter"], words,
                     what="a word not in the list")
        self.refused("return E.recoverySecret(args[0], args[1]);", phrase[:12], words, what="12 words")
        self.refused("return E.recoveryWords(E.randomBytes(32), ['abandon']);", what="a list that is not 2048 words")

    def test_recovery_kit(self):
        user, group, secret, epoch_key = new_id(), new_id(), os.urandom(32), os.urandom(32)
        made = self.js("""var [user, secret] = args, kit = await E.generateRecoveryKeys();
            return { kit: kit, sealed: b64(await E.sealRecoveryKit(unb64(secret), user, kit)) };""",
                       user, b64(secret))
        kit, sealed = made["kit"], unb64(made["sealed"])
        key = hkdf(secret, b"spotter-e2e-v1 recovery")
        plain = AESGCM(key).decrypt(sealed[:12], sealed[12:], f"spotter-e2e-v1 recovery-kit\n{user}".encode())
        self.check_equal(json.loads(plain), kit, "cryptography opens the kit")
        self.check_equal(list(json.loads(plain)), ["hpke_private", "hpke_public", "signing_private", "signing_public"],
                         "in the spec's field order")
        for name in ("hpke", "signing"):
            private = ec.derive_private_key(int.from_bytes(unb64(kit[f"{name}_private"]), "big"), ec.SECP256R1())
            self.check_equal(b64(public_raw(private)), kit[f"{name}_public"], f"the {name} scalar is its public key's")
        # A new device given the words opens the kit, unwraps an epoch key sealed to the recovery device, and signs.
        recovery_hpke = KEMKey.from_pyca_cryptography_key(
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(kit["hpke_public"])))
        enc, sender = SUITE.create_sender_context(recovery_hpke, info=f"spotter-e2e-v1 epoch-key\n{group}\n0".encode())
        used = self.js("""var [user, secret, sealed, wrapped, group] = args;
            var kit = await E.openRecoveryKit(unb64(secret), user, unb64(sealed));
            var keys = await E.importRecoveryKeys(kit);
            var s = await E.signStatement(keys.signing, "recovery", { v: 1 });
            return { epoch: b64(await E.unwrapEpochKey(keys.hpke, unb64(wrapped), group, 0)),
                     signed: await E.verifyStatement(s, unb64(kit.signing_public)),
                     extractable: keys.hpke.privateKey.extractable || keys.signing.privateKey.extractable };""",
                       user, b64(secret), b64(sealed), b64(enc + sender.seal(epoch_key)), group)
        self.check_equal(unb64(used["epoch"]), epoch_key, "the kit's HPKE key opens an epoch key wrapped to it")
        self.check(used["signed"], "the kit's signing key signs")
        self.check(not used["extractable"], "imported kit keys are not extractable")
        self.refused("return E.openRecoveryKit(unb64(args[0]), args[1], unb64(args[2]));",
                     b64(secret), new_id(), b64(sealed), what="a kit under another user id")
        self.refused("return E.openRecoveryKit(E.randomBytes(32), args[0], unb64(args[1]));",
                     user, b64(sealed), what="a kit opened with other words")

    # --- device keys --------------------------------------------------------------------------------------

    def test_device_keys_survive_a_reload_and_never_leave(self):
        made = self.js("""await E.forgetDeviceKeys("test");
            var keys = await E.saveDeviceKeys(await E.generateDeviceKeys(), "test");
            return [b64(keys.hpke.publicRaw), b64(keys.signing.publicRaw)];""")
        self.check(all(len(unb64(k)) == 65 and unb64(k)[0] == 4 for k in made), "public keys are 65 raw bytes")
        self.driver.refresh()
        self.load()
        after = self.js("""var keys = await E.loadDeviceKeys("test"), refusals = [];
            for (var k of [keys.hpke.privateKey, keys.signing.privateKey]) {
              for (var format of ["pkcs8", "jwk"]) {
                try { await crypto.subtle.exportKey(format, k); } catch (e) { refusals.push(e.name); }
              }
            }
            var s = await E.signStatement(keys.signing, "dev", { v: 1 });
            var wrapped = await E.wrapEpochKey(keys.hpke.publicRaw, new Uint8Array(32).fill(7), args[0], 1);
            return { publics: [b64(keys.hpke.publicRaw), b64(keys.signing.publicRaw)],
                     extractable: [keys.hpke.privateKey.extractable, keys.signing.privateKey.extractable],
                     refusals: refusals, signed: await E.verifyStatement(s, keys.signing.publicRaw),
                     unwrapped: b64(await E.unwrapEpochKey(keys.hpke, wrapped, args[0], 1)),
                     none: await E.loadDeviceKeys("never-saved") };""", new_id())
        self.check_equal(after["publics"], made, "the keys read back after a reload are the ones saved")
        self.check_equal(after["extractable"], [False, False], "private keys are not extractable")
        self.check_equal(after["refusals"], ["InvalidAccessError"] * 4, "exporting a private key is refused")
        self.check(after["signed"], "the reloaded signing key signs")
        self.check_equal(unb64(after["unwrapped"]), bytes([7]) * 32, "the reloaded HPKE key opens")
        self.check_equal(after["none"], None, "a slot never saved is empty")
        self.js("return E.forgetDeviceKeys('test');")

    # --- the Swift implementation's vectors -------------------------------------------------------------

    def test_swift_vectors_open_in_the_browser(self):
        """What SpotterE2E made (Tests/Vectors/spotter-e2e-v1.json, written by its Fixture test) opens here, and
        what the browser computes from the same inputs is what Swift computed: the other direction of the
        cross-check is SpotterE2E's own test of the same file against pyca/cryptography."""
        v = json.loads(SPOTTER_VECTORS.read_text())
        group, epoch = v["epoch_key"]["group_id"], v["epoch_key"]["epoch"]
        got = self.js("""var [v] = args, d = v.device.keys, e = v.epoch_key;
            var keys = await E.importPrivateKey("hpke", unb64(d.hpke_private), unb64(d.hpke_public));
            var key = await E.unwrapEpochKey(keys, unb64(e.wrapped), e.group_id, e.epoch);
            return { key: b64(key), wrapping: b64(await E.wrappingKey(key)) };""", v)
        self.check_equal((got["key"], got["wrapping"]), (v["epoch_key"]["key"], v["epoch_key"]["wrapping_key"]),
                         "Swift's wrapped epoch key opens, and derives the same wrapping key")
        got = self.js("""var [v, group, epoch] = args, c = v.content_key;
            return b64(await E.unwrapContentKey(unb64(v.epoch_key.key), unb64(c.wrapped), group, epoch,
                                                c.item_id));""", v, group, epoch)
        self.check_equal(got, v["content_key"]["key"], "Swift's wrapped content key opens")
        got = self.js("""var [v, group] = args;
            return E.openPost(unb64(v.content_key.key), group, v.post.post_id, unb64(v.post.sealed));""", v, group)
        self.check_equal(got, json.loads(v["post"]["plaintext"]), "Swift's sealed post opens")
        blob = v["blob"]
        got = self.js("""var [b] = args, plain = await E.decryptBlob(unb64(b.content_key), unb64(b.sealed));
            var digest = new Uint8Array(await crypto.subtle.digest("SHA-256", plain));
            var patterned = plain.every((byte, i) => byte === i % 251);
            return { length: plain.length, sha256: E.toHex(digest), patterned };""", blob)
        self.check_equal((got["length"], got["sha256"], got["patterned"]),
                         (blob["plaintext_length"], blob["plaintext_sha256"], True), "Swift's 150,000-byte blob opens")
        chain = v["device_chain"]
        verified = self.js("return E.verifyDeviceChain(args[0].user_id, args[0].statements);", chain)
        self.check_equal(([d["id"] for d in verified["live"]], verified["head"]),
                         (chain["live_device_ids"], chain["head"]), "Swift's device chain verifies, with its live devices")
        group_chain = v["group_chain"]
        members = self.js("""var [g] = args, chains = [];
            for (var [user, statements] of Object.entries(g.device_chains))
                chains.push(await E.verifyDeviceChain(user, statements));
            var verified = await E.verifyGroupChain(g.group_id, g.statements, chains);
            return { members: verified.members, head: verified.head };""", group_chain)
        expected = {m["user"]: m["role"] for m in group_chain["members"]}
        self.check_equal((members["members"], members["head"]), (expected, group_chain["head"]),
                         "Swift's group chain verifies, with its members' roles")
        safety = v["safety_number"]
        got = self.js("return E.safetyNumber(args[0].user_id, args[0].signing_public_keys.map(unb64));", safety)
        self.check_equal(got, safety["number"], "Swift's safety number")
        words = (pathlib.Path(mnemonic.__file__).parent / "wordlist/english.txt").read_text()
        recovery = v["recovery"]
        got = self.js("""var [r, list] = args, secret = await E.recoverySecret(r.words, list);
            return { secret: b64(secret), kit: await E.openRecoveryKit(secret, r.user_id, unb64(r.kit)) };""",
                      recovery, words)
        self.check_equal(got["secret"], recovery["entropy"], "Swift's recovery words give its 32 bytes")
        self.check_equal(got["kit"], json.loads(recovery["kit_plaintext"]), "Swift's recovery kit opens")

    def test_browser_vectors_for_swift(self):
        """Everything the browser makes that a Swift client must open, made here with fresh keys: an epoch key
        wrapped to a recipient Python holds, a content key, a sealed post, a 150,000-byte blob, a device chain, a
        group chain, a safety number and a recovery kit. Python opens each (the spec, read independently); the
        file SpotterE2E's BrowserVectorTests opens is written from it when asked."""
        recipient = ec.generate_private_key(ec.SECP256R1())
        group, post, user, child = new_id(), new_id(), new_id(), new_id()
        words = (pathlib.Path(mnemonic.__file__).parent / "wordlist/english.txt").read_text()
        made = self.js("""var [recipient, group, post, user, child, list, now] = args;
            var epochKey = E.randomBytes(32), content = E.randomBytes(32), blobKey = E.randomBytes(32);
            var body = {v: 1, text: "Parkrun with Lou, sealed in the browser", workout: null,
                        children: [{id: child, name: "Lou"}], media: []};
            var plain = new Uint8Array(150000);
            for (var i = 0; i < plain.length; i++) plain[i] = i % 251;
            var phone = await E.generateDeviceKeys(), laptop = await E.generateDeviceKeys();
            var phoneID = crypto.randomUUID(), laptopID = crypto.randomUUID();
            var device = (id, keys, name) => ({id, name, hpke_public: b64(keys.hpke.publicRaw),
                                               signing_public: b64(keys.signing.publicRaw), recovery: false});
            var chain = "device:" + user, s0 = await E.signStatement(phone.signing, phoneID,
                {v: 1, chain, seq: 0, prev: null, at: now, kind: "add_device", device: device(phoneID, phone, "phone")});
            var s1 = await E.signStatement(phone.signing, phoneID, {v: 1, chain, seq: 1,
                prev: await E.statementHash(s0), at: now, kind: "add_device", device: device(laptopID, laptop, "laptop")});
            var g0 = await E.signStatement(laptop.signing, laptopID, {v: 1, chain: "group:" + group, seq: 0,
                prev: null, at: now, kind: "create", user, history: true});
            var secret = E.randomBytes(32), kitKeys = await E.generateRecoveryKeys();
            return {
              group_id: group, epoch: 3, epoch_key: b64(epochKey),
              wrapped_epoch_key: b64(await E.wrapEpochKey(unb64(recipient), epochKey, group, 3)),
              item_id: post, content_key: b64(content),
              wrapped_content_key: b64(await E.wrapContentKey(epochKey, content, group, 3, post)),
              post_plaintext: JSON.stringify(body), sealed_post: b64(await E.sealPost(content, group, post, body)),
              blob_key: b64(blobKey), blob: b64(await E.encryptBlob(blobKey, plain)),
              user_id: user, device_chain: [s0, s1], live_device_ids: [phoneID, laptopID], group_chain: [g0],
              safety_number: await E.safetyNumber(user, [phone.signing.publicRaw, laptop.signing.publicRaw]),
              signing_public_keys: [b64(phone.signing.publicRaw), b64(laptop.signing.publicRaw)],
              recovery_entropy: b64(secret), recovery_words: (await E.recoveryWords(secret, list)).join(" "),
              recovery_keys: kitKeys, recovery_kit: b64(await E.sealRecoveryKit(secret, user, kitKeys)),
            };""", b64(public_raw(recipient)), group, post, user, child, words, int(time.time()))
        # Python opens what it can with the spec alone: the epoch key (pyhpke), the content key and the post.
        wrapped = unb64(made["wrapped_epoch_key"])
        context = SUITE.create_recipient_context(
            wrapped[:65], KEMKey.from_pyca_cryptography_key(recipient), info=f"spotter-e2e-v1 epoch-key\n{group}\n3".encode())
        self.check_equal(b64(context.open(wrapped[65:])), made["epoch_key"], "pyhpke opens the browser's epoch key")
        made["recipient"] = {"hpke_private": b64(recipient.private_numbers().private_value.to_bytes(32, "big")),
                             "hpke_public": b64(public_raw(recipient))}
        made["description"] = ("Made by Tests/Browser/test_e2e_crypto.py (test_browser_vectors_for_swift) with "
                               "e2e.js in Chromium; opened by Tests/SpotterE2ETests/BrowserVectorTests.swift.")
        if os.environ.get("SPOTTER_E2E_WRITE_BROWSER_VECTORS") == "1":
            BROWSER_VECTORS.write_text(json.dumps(made, indent=2, sort_keys=True) + "\n")

    @classmethod
    def report(cls):
        print(f"\n{cls.checks} checks", flush=True)


def tearDownModule():
    E2ECryptoStory.report()


if __name__ == "__main__":
    unittest.main()
