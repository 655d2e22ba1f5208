"""Checks SpotterE2E's output with implementations nobody here wrote: pyhpke (RFC 9180) and Trezor's
mnemonic (BIP-39), both from PyPI in the repository's .venv (scripts/test installs them).

Run by InteropTests.swift with one JSON argument:
  {"open": {"sk_r", "info", "wrapped"},   # hex: opens Swift's enc || ct with pyhpke, prints the key
   "seal": {"pk_r", "info", "pt"},        # hex: seals to a Swift-made key with pyhpke, prints enc || ct
   "words": {"entropy"}}                  # hex: prints mnemonic's 24 words for the entropy
and prints one JSON object: {"opened": hex, "sealed": hex, "words": "..."}.
"""

import json
import sys

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
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
