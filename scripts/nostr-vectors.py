#!/usr/bin/env python3
"""Test vectors for SpotterNostr from rust-nostr (PyPI `nostr-sdk`), an implementation nobody here wrote.

    .venv/bin/python scripts/nostr-vectors.py            # (re)writes the two vector files below
    .venv/bin/python scripts/nostr-vectors.py verify F   # checks every event in F with rust-nostr

`generate` writes, under Tests/SpotterNostrTests/Vectors/:
  - nip19-rust-nostr.json: npub/nsec/note/nprofile/nevent/naddr strings rust-nostr encoded, beside the values
    rust-nostr decodes from them;
  - nostr-events-rust-nostr.json: events rust-nostr signed (fixed test keys and created_at) whose content and
    tags hold every character NIP-01 escapes, unicode, `/`, `<`, empty strings and other control characters,
    each as the exact JSON text rust-nostr wrote, with the test key that signed it.
The output is deterministic except for signatures (BIP-340 signing draws fresh auxiliary randomness), so a
rerun changes only `sig` fields. The keys are throwaway test keys, never anyone's.

`verify F` reads a JSON array of events (what SpotterNostrTests signs) and exits 1 unless rust-nostr accepts
each one's id and signature.
"""

import hashlib
import json
import sys
from pathlib import Path

import nostr_sdk as n

VECTORS = Path(__file__).resolve().parent.parent / "Tests" / "SpotterNostrTests" / "Vectors"
CREATED_AT = 1_764_000_000


def test_key(label: str) -> n.Keys:
    """A fixed throwaway key: SHA-256 of a label (valid as a secp256k1 secret with overwhelming odds)."""
    return n.Keys(n.SecretKey.parse(hashlib.sha256(f"spotter-test-{label}".encode()).hexdigest()))


# Every character NIP-01 escapes, unicode of each awkward sort, and the characters HTML and JSON encoders like to
# escape but NIP-01 does not. The `control` ones are escaped by rust-nostr (serde_json) as \u00XX.
TEXTS = {
    "empty": "",
    "nip01-escapes": "line\nbreak \"quoted\" back\\slash cr\r tab\t backspace\b formfeed\f end",
    "escapes-only": "\n\"\\\r\t\b\f",
    "literal-backslash-n": "\\n is not a newline, nor is \\u000a",
    "emoji": "🏋️‍♀️ deadlift PR 💪🏽 👨‍👩‍👧 🇳🇴",
    "rtl": "مرحبا بالعالم — שלום עולם ‏mixed‎ ltr",
    "combining": "e\u0301 n\u0303 a\u030a Z\u0336\u0337 \u0915\u094d\u0937",
    "astral": "𝄞 𠜎 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0001F9EA",
    "html-and-slash": "</script><b>5/3/1</b> & a < b > c 'single' `back`",
    "separators": "\u2028line\u2029paragraph\u0085next\u00a0nbsp\ufeffbom\u007fdel",
    "control": "nul?\u0001start\u001funit\u000bvtab\u001besc",
}

EVENTS = [
    # (name, kind, tags, content text key, key label)
    ("note-empty", 1, [], "empty", "alice"),
    ("note-nip01-escapes", 1, [["t", "running"], ["title", TEXTS["nip01-escapes"]]], "nip01-escapes", "alice"),
    ("note-escapes-only", 1, [["x", TEXTS["escapes-only"]]], "escapes-only", "bob"),
    ("note-literal-backslash", 1, [], "literal-backslash-n", "bob"),
    ("note-emoji", 1, [["t", "💪"], ["alt", TEXTS["emoji"]]], "emoji", "alice"),
    ("note-rtl", 1, [["subject", TEXTS["rtl"]]], "rtl", "carol"),
    ("note-combining", 1, [["t", "e\u0301"]], "combining", "carol"),
    ("note-astral", 1, [["alt", TEXTS["astral"]]], "astral", "alice"),
    ("note-html", 1, [["r", "https://example.com/a/b?c=<d>&e=/f"]], "html-and-slash", "bob"),
    ("note-separators", 1, [["alt", TEXTS["separators"]]], "separators", "carol"),
    ("note-empty-tags", 1, [["t", ""], ["", ""], ["x"], ["e", "", "", ""]], "empty", "alice"),
    ("note-control", 1, [["alt", TEXTS["control"]]], "control", "bob"),
    (
        "workout-record",
        1301,
        [["d", "w-1"], ["exercise", "33401:" + "0" * 64 + ":squat", "", "100", "5", "8"], ["t", "fitness"]],
        "nip01-escapes",
        "alice",
    ),
    ("exercise-template", 33401, [["d", "squat"], ["title", "Back squat \"low bar\""], ["equipment", "barbell"]], "emoji", "carol"),
    ("metadata", 0, [], None, "alice"),  # content: JSON with escapes inside it
    ("reaction", 7, [["e", "a" * 64], ["p", "b" * 64]], None, "bob"),
]


def sign(name, kind, tags, text_key, label):
    content = TEXTS[text_key] if text_key else ""
    if name == "metadata":
        content = json.dumps({"name": "Ana \"Lift\" Li", "about": "5/3/1\n🏋️ </b>"}, ensure_ascii=False)
    if name == "reaction":
        content = "+"
    keys = test_key(label)
    builder = n.EventBuilder(n.Kind(kind), content).tags([n.Tag.parse(t) for t in tags])
    event = builder.custom_created_at(n.Timestamp.from_secs(CREATED_AT)).finalize(keys)
    assert event.verify(), name
    return {"name": name, "secret_key": keys.secret_key().to_hex(), "json": event.as_json()}


def control_character_note():
    """How rust-nostr treats control characters NIP-01 does not list: it escapes them as \\u00XX when it
    computes ids, and refuses an id computed with them written raw (the literal reading of NIP-01)."""
    keys = test_key("bob")
    pubkey = keys.public_key().to_hex()
    content = TEXTS["control"]
    raw = "[0,%s,%d,1,[],%s]" % (json.dumps(pubkey), CREATED_AT, nip01_string(content))
    raw_id = hashlib.sha256(raw.encode()).hexdigest()
    serde_id = n.EventId.compute(keys.public_key(), n.Timestamp.from_secs(CREATED_AT), n.Kind(1), [], content).to_hex()
    literal = n.Event.from_json(
        json.dumps(
            {
                "id": raw_id,
                "pubkey": pubkey,
                "created_at": CREATED_AT,
                "kind": 1,
                "tags": [],
                "content": content,
                "sig": keys.sign_schnorr(bytes.fromhex(raw_id)),
            },
            ensure_ascii=False,
        )
    )
    return {
        "content": content,
        "rust_nostr_id": serde_id,
        "nip01_literal_id": raw_id,
        "rust_nostr_accepts_nip01_literal_id": literal.verify_id(),
        "public_key": pubkey,
    }


def nip01_string(text):
    escapes = {"\n": "\\n", '"': '\\"', "\\": "\\\\", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
    return '"' + "".join(escapes.get(c, c) for c in text) + '"'


def nip19():
    alice, bob = test_key("alice"), test_key("bob")
    ids = [n.EventId.parse(hashlib.sha256(f"event-{i}".encode()).hexdigest()) for i in range(3)]
    relays = [["wss://relay.example.com"], ["wss://r.x.com", "wss://nos.lol/path/", "ws://127.0.0.1:7777"], []]
    out = {"npub": [], "nsec": [], "note": [], "nprofile": [], "nevent": [], "naddr": []}
    for keys in (alice, bob, test_key("carol")):
        out["npub"].append({"hex": keys.public_key().to_hex(), "bech32": keys.public_key().to_bech32()})
        out["nsec"].append({"hex": keys.secret_key().to_hex(), "bech32": keys.secret_key().to_bech32()})
    for event_id in ids:
        out["note"].append({"hex": event_id.to_hex(), "bech32": event_id.to_bech32()})
    for keys, urls in zip((alice, bob, alice), relays):
        profile = n.Nip19Profile(keys.public_key(), [n.RelayUrl.parse(u) for u in urls])
        back = n.Nip19Profile.from_bech32(profile.to_bech32())
        out["nprofile"].append(
            {"bech32": profile.to_bech32(), "pubkey": back.public_key().to_hex(), "relays": [str(r) for r in back.relays()]}
        )
    for event_id, author, kind, urls in [
        (ids[0], None, None, []),
        (ids[1], alice, 1301, relays[0]),
        (ids[2], bob, 1, relays[1]),
        (ids[0], None, 7, relays[1]),
    ]:
        pointer = n.Nip19Event(
            event_id, author.public_key() if author else None, n.Kind(kind) if kind is not None else None,
            [n.RelayUrl.parse(u) for u in urls],
        )
        back = n.Nip19Event.from_bech32(pointer.to_bech32())
        out["nevent"].append(
            {
                "bech32": pointer.to_bech32(),
                "id": back.event_id().to_hex(),
                "author": back.author().to_hex() if back.author() else None,
                "kind": back.kind().as_u16() if back.kind() else None,
                "relays": [str(r) for r in back.relays()],
            }
        )
    for kind, keys, identifier, urls in [
        (33401, alice, "squat", relays[0]),
        (33402, bob, "", relays[1]),
        (30023, alice, "Leg day: 5×5 🏋️ \"heavy\"", []),
    ]:
        address = n.Nip19Coordinate(n.Coordinate(n.Kind(kind), keys.public_key(), identifier), [n.RelayUrl.parse(u) for u in urls])
        back = n.Nip19Coordinate.from_bech32(address.to_bech32())
        out["naddr"].append(
            {
                "bech32": address.to_bech32(),
                "identifier": back.coordinate().identifier(),
                "pubkey": back.coordinate().public_key().to_hex(),
                "kind": back.coordinate().kind().as_u16(),
                "relays": [str(r) for r in back.relays()],
            }
        )
    return out


def generate():
    VECTORS.mkdir(parents=True, exist_ok=True)
    header = {"generator": "scripts/nostr-vectors.py", "nostr_sdk": n.__version__ if hasattr(n, "__version__") else version()}
    events = {**header, "created_at": CREATED_AT, "events": [sign(*spec) for spec in EVENTS],
              "control_characters": control_character_note()}
    (VECTORS / "nostr-events-rust-nostr.json").write_text(json.dumps(events, indent=1, ensure_ascii=False) + "\n")
    (VECTORS / "nip19-rust-nostr.json").write_text(json.dumps({**header, **nip19()}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(events['events'])} events and NIP-19 vectors to {VECTORS}")


def version():
    from importlib.metadata import version as package_version

    return package_version("nostr-sdk")


def verify(path):
    failures = 0
    events = json.loads(Path(path).read_text())
    for item in events:
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        try:
            event = n.Event.from_json(text)
        except Exception as error:  # rust-nostr refuses to read it at all
            print(f"FAIL unreadable: {error}")
            failures += 1
            continue
        if event.verify_id() and event.verify_signature():
            print(f"ok {event.id().to_hex()}")
        else:
            failures += 1
            print(f"FAIL {event.id().to_hex()}: id {event.verify_id()}, signature {event.verify_signature()}")
    print(f"{len(events) - failures} of {len(events)} events verify in rust-nostr {version()}")
    return 1 if failures or not events else 0


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "verify":
        sys.exit(verify(sys.argv[2]))
    elif len(sys.argv) == 1 or sys.argv[1] == "generate":
        generate()
    else:
        sys.exit(__doc__)
