"""Checks SpotterE2E's output with implementations nobody here wrote: pyhpke (RFC 9180) and Trezor's
mnemonic (BIP-39), both from PyPI in the repository's .venv (scripts/test installs them).

Run by InteropTests.swift with one JSON argument:
  {"open": {"sk_r", "info", "wrapped"},   # hex: opens Swift's enc || ct with pyhpke, prints the key
   "seal": {"pk_r", "info", "pt"},        # hex: seals to a Swift-made key with pyhpke, prints enc || ct
   "words": {"entropy"},                  # hex: prints mnemonic's 24 words for the entropy
   "fixture": {"path"},                   # reads Tests/Vectors/spotter-e2e-v1.json from docs/encryption.md alone
   "device_codes": {"path"}}              # works out Tests/Vectors/device-codes-v1.json's codes from the spec
and prints one JSON object: {"opened": hex, "sealed": hex, "words": "...", "fixture": [checks passed],
"device_codes": [codes checked]}.

The fixture check uses pyca/cryptography's AES-GCM, HKDF and ECDSA (pyhpke's dependency) with the spec's
byte layouts written out here, so it reads the fixture as the browser would, not as SpotterE2E does.
"""

import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mnemonic import Mnemonic
from pyhpke import AEADId, CipherSuite, KDFId, KEMId

SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


def open_wrapped(sk_r: bytes, info: bytes, wrapped: bytes) -> bytes:
    enc, ct = wrapped[:65], wrapped[65:]
    key = SUITE.kem.deserialize_private_key(sk_r)
    return SUITE.create_recipient_context(enc, key, info=info).open(ct, aad=b"")


def seal_to(pk_r: bytes, info: bytes, pt: bytes) -> bytes:
    key = SUITE.kem.deserialize_public_key(pk_r)
    enc, sender = SUITE.create_sender_context(key, info=info)
    return enc + sender.seal(pt, aad=b"")


def b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(ikm: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(ikm)


def open_sealed(key: bytes, sealed: bytes, aad: bytes) -> bytes:
    return AESGCM(key).decrypt(sealed[:12], sealed[12:], aad)


def open_blob(key: bytes, blob: bytes) -> bytes:
    header, body = blob[:16], blob[16:]
    assert header[:4] == b"SPB1" and int.from_bytes(header[4:8], "big") == 65536 and header[15] == 0
    chunks = [body[i : i + 65552] for i in range(0, len(body), 65552)]
    out = b""
    for index, chunk in enumerate(chunks):
        last = index == len(chunks) - 1
        nonce = header[8:15] + index.to_bytes(4, "big") + (b"\x01" if last else b"\x00")
        out += AESGCM(key).decrypt(nonce, chunk, header)
    return out


def verify_statements(statements: list, chain: str, keys: dict) -> list:
    """Signatures, seq, prev and chain of each statement; `keys` maps device ids to signing keys and grows
    with add_device (the table's who-may-sign rules are SpotterE2E's tests' business)."""
    prev = None
    bodies = []
    for seq, statement in enumerate(statements):
        body_bytes = b64(statement["body"])
        body = json.loads(body_bytes)
        assert body["v"] == 1 and body["chain"] == chain and body["seq"] == seq and body["prev"] == prev, body
        if body["kind"] == "add_device" and seq == 0:
            keys[body["device"]["id"]] = b64(body["device"]["signing_public"])
        signature = b64(statement["signature"])
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keys[statement["signer"]])
        key.verify(der, b"spotter-e2e-v1 statement\n" + body_bytes, ec.ECDSA(hashes.SHA256()))
        if body["kind"] == "add_device":
            keys[body["device"]["id"]] = b64(body["device"]["signing_public"])
        prev = hashlib.sha256(body_bytes).hexdigest()
        bodies.append(body)
    return bodies


def check_fixture(path: str) -> list:
    f = json.load(open(path))
    passed = []
    e = f["epoch_key"]
    sk = b64(f["device"]["keys"]["hpke_private"])
    epoch_key = open_wrapped(sk, e["info"].encode(), b64(e["wrapped"]))
    assert epoch_key == b64(e["key"])
    passed.append("epoch key")
    wrapping_key = hkdf(epoch_key, b"spotter-e2e-v1 wrap")
    assert wrapping_key == b64(e["wrapping_key"])
    passed.append("wrapping key")
    c = f["content_key"]
    aad = f"spotter-e2e-v1 content-key\n{e['group_id']}\n{e['epoch']}\n{c['item_id']}".encode()
    assert c["aad"].encode() == aad
    content_key = open_sealed(wrapping_key, b64(c["wrapped"]), aad)
    assert content_key == b64(c["key"])
    passed.append("content key")
    p = f["post"]
    aad = f"spotter-e2e-v1 post\n{e['group_id']}\n{p['post_id']}".encode()
    assert open_sealed(content_key, b64(p["sealed"]), aad).decode() == p["plaintext"]
    passed.append("post")
    b = f["blob"]
    plaintext = open_blob(b64(b["content_key"]), b64(b["sealed"]))
    assert plaintext == bytes(i % 251 for i in range(b["plaintext_length"]))
    assert hashlib.sha256(plaintext).hexdigest() == b["plaintext_sha256"]
    passed.append("blob")
    d = f["device_chain"]
    bodies = verify_statements(d["statements"], "device:" + d["user_id"], {})
    added = [x["device"]["id"] for x in bodies if x["kind"] == "add_device"]
    revoked = [x["device_id"] for x in bodies if x["kind"] == "revoke_device"]
    assert [i for i in added if i not in revoked] == d["live_device_ids"]
    assert hashlib.sha256(b64(d["statements"][-1]["body"])).hexdigest() == d["head"]
    passed.append("device chain")
    g = f["group_chain"]
    keys: dict = {}
    for user, statements in g["device_chains"].items():
        verify_statements(statements, "device:" + user, keys)
    bodies = verify_statements(g["statements"], "group:" + g["group_id"], keys)
    assert [x["kind"] for x in bodies] == ["create", "add", "remove"]
    passed.append("group chain")
    s = f["safety_number"]
    user_prefix = f"spotter-e2e-v1 safety\n{s['user_id']}\n".encode()
    digest = hashlib.sha512(user_prefix + b"".join(sorted(b64(k) for k in s["signing_public_keys"]))).digest()
    number = " ".join(f"{int.from_bytes(digest[i * 5 : i * 5 + 5], 'big') % 100000:05d}" for i in range(6))
    assert number == s["number"], (number, s["number"])
    passed.append("safety number")
    r = f["recovery"]
    entropy = b64(r["entropy"])
    assert Mnemonic("english").to_mnemonic(entropy) == r["words"]
    assert Mnemonic("english").to_entropy(r["words"]) == entropy
    kit = open_sealed(hkdf(entropy, b"spotter-e2e-v1 recovery"), b64(r["kit"]), b"spotter-e2e-v1 recovery-kit\n" + r["user_id"].encode())
    assert json.loads(kit) == r["keys"] == json.loads(r["kit_plaintext"])
    passed.append("recovery")
    return passed


CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def device_code(user_id: str, device: dict) -> str:
    """docs/encryption.md, "Approving a new device": SHA-256's first 60 bits in Crockford's base32, 4-4-4."""
    digest = hashlib.sha256(
        f"spotter-e2e-v1 device-code\n{user_id}\n{device['id']}\n".encode()
        + b64(device["hpke_public"]) + b64(device["signing_public"])).digest()
    top = int.from_bytes(digest[:8], "big") >> 4
    symbols = "".join(CROCKFORD[(top >> (55 - 5 * i)) & 31] for i in range(12))
    return "-".join(symbols[i:i + 4] for i in range(0, 12, 4))


def check_device_codes(path: str) -> list:
    cases = json.load(open(path))["cases"]
    for case in cases:
        assert device_code(case["user_id"], case["device"]) == case["code"], case
    return [case["code"] for case in cases]


def main() -> None:
    request = json.loads(sys.argv[1])
    h = bytes.fromhex
    answer = {}
    if "open" in request:
        o = request["open"]
        answer["opened"] = open_wrapped(h(o["sk_r"]), h(o["info"]), h(o["wrapped"])).hex()
    if "seal" in request:
        s = request["seal"]
        answer["sealed"] = seal_to(h(s["pk_r"]), h(s["info"]), h(s["pt"])).hex()
    if "words" in request:
        answer["words"] = Mnemonic("english").to_mnemonic(h(request["words"]["entropy"]))
    if "fixture" in request:
        answer["fixture"] = check_fixture(request["fixture"]["path"])
    if "device_codes" in request:
        answer["device_codes"] = check_device_codes(request["device_codes"]["path"])
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
