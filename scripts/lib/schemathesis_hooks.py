"""What scripts/contract-test changes in schemathesis' run, and what it leaves out, each with its reason.

Loaded through SCHEMATHESIS_HOOKS. Everything else schemathesis finds is fixed in the server or the OpenAPI
document, not here.
"""

import json
import re
import uuid

import schemathesis

VALID_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7E]{1,255}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    """Each valid generated `Idempotency-Key` is made unique.

    schemathesis draws keys from the document's pattern, and its coverage phase sends the same few (`0`, `00`...)
    with different requests; the server then answers what the document promises, 422 "already used for a
    different request". A client makes one key per intended change, so a valid key becomes a fresh UUID; an
    invalid one is kept, for the negative checks.
    """
    headers = case.headers or {}
    for name, value in list(headers.items()):
        if name.lower() == "idempotency-key" and isinstance(value, str) and VALID_IDEMPOTENCY_KEY.match(value):
            headers[name] = str(uuid.uuid4())


# Schema-valid requests the server refuses for a rule no JSON Schema can state; the document states each in
# words where it applies. A refusal is left out only when every field it names is one of these, with this
# status, saying this (where given), on this operation (where given); any other field named alongside still
# fails the run.
UNSTATABLE = [
    # An opaque cursor is one this server gave out; to a schema it is any string of its alphabet.
    (400, r"cursor|since", "not a cursor this server gave out", None),
    # A hashtag is letters of any script, digits and underscores, one a letter: Unicode classes (\p{L}) that
    # Python's re, which schemathesis generates patterns with, does not have.
    (400, r"tag", "not a hashtag", None),
    # Within the last 7 days of the server's clock: a window that moves.
    (422, r"events\[\d+\]\.occurred_at", "within the last 7 days", None),
    # Not before start_time and within 24 hours of it: a relation between two fields.
    (422, r"workout\.end_time", "start_time", None),
    # The account's actual password: a credential, not a shape.
    (422, r"current_password", "is not right", None),
    # At most 72 bytes in UTF-8, as bcrypt reads: JSON Schema counts code points, not bytes.
    (422, r"password|new_password", "at most 72 bytes", None),
    # Something that must exist and that the caller may use.
    (422, r"workout\.template_id|exercises\[\d+\]\.exercise_id|parent_id", None, None),
    # A photo's bytes must be a JPEG, PNG, WebP or HEIC image (and some bytes): a schema says "binary", no more.
    (422, r"file", None, "POST /api/v1/media/direct"),
    # The caller's own uploads, processed and ready: ids the server made for this caller.
    (422, r"media_ids\[\d+\]|avatar_media_id", None, None),
    # Not oneself: who is asking decides, and the document can't know who will be signed in.
    (422, r"username", "yourself", None),
    # The caller's current address: who is asking decides.
    (422, r"email", "is already your email", "POST /api/v1/me/email"),
    # A mailed link's token: one this server made, still unused and unexpired; to a schema it is any string.
    (422, r"token", "this link is not valid", None),
    # A Nostr link event must be signed by its pubkey over its id, within a minute of the server's clock, and answer
    # a challenge this server gave the caller: a signature and a one-time value, not a shape.
    (422, r"event", None, "POST /api/v1/nostr/keys"),
    # An edited post keeps its kind (a note gets no workout and keeps saying something): the stored post's kind.
    (422, r"text|workout", None, "PATCH /api/v1/posts/{id}"),
    # A post joins a group only when it is made, and a group post stays in its group: the stored post's audience.
    (422, r"visibility", "a post", "PATCH /api/v1/posts/{id}"),
    # An invitation by name is used once: `max_uses` is for links only, a relation between two fields.
    (422, r"max_uses", "is for links", "POST /api/v1/groups/{id}/invitations"),
    # A post of this very group, which the caller may see: ids the server made, in the group the path names.
    (422, r"up_to", "is not a post of this group", "POST /api/v1/groups/{id}/seen"),
    # A member of the group the path names: who is in the group decides.
    (422, r"user_id", "must be a member", "POST /api/v1/groups/{id}/transfer"),
    # A child is under 18: born within 17 years of the server's clock, a window that moves.
    (422, r"birth_year", "(a child)", None),
    # Children the caller manages, named only in a post to a private group the caller is in (ChildSafetyPolicy):
    # who is asking, and the group's access, decide.
    (422, r"child_ids(\[\d+\])?", None, None),
    # A post to a group names a group the caller is a member of, and only such a post has visibility `group`: who
    # is in which group decides, and a relation between two fields.
    (422, r"group_id", None, "POST /api/v1/posts"),
    (422, r"visibility", "must be group", "POST /api/v1/posts"),
    # Encrypted groups (docs/encryption.md): a statement is signed by a device over bytes that must verify with its
    # whole chain, made within five minutes of the server's clock; keys, bodies and kits are ciphertext of exact
    # sizes made by a device; ids are UUIDv7s made now. Signatures, chains and clocks, not shapes.
    (422, r"(statement|statements(\[\d+\])?)(\.[a-z]+)?", None, None),
    (422, r"epoch|(epoch\.)?keys(\[\d+\](\.[a-z_]+)?)?", None, None),
    (422, r"sealed(\.[a-z_]+)?|id|tombstone|kit|device_id|group", None, None),
    (422, r"byte_size", "was", None),
    # A new device's public keys are points on P-256, which a device made: to a schema, any 87 base64url letters.
    (422, r"device\.(hpke_public|signing_public)", "P-256", "POST /api/v1/me/device-requests"),
    # An encrypted group is private: a relation between two fields.
    (422, r"access", "must be private for an encrypted group", "POST /api/v1/groups"),
]


def _unstatable(operation, status, errors):
    return bool(errors) and all(
        any(
            status == expected
            and re.fullmatch(field, error.get("field", ""))
            and (saying is None or saying in error.get("detail", ""))
            and only in (None, operation)
            for expected, field, saying, only in UNSTATABLE
        )
        for error in errors
    )


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keeps every failure but a schema-valid request refused for one of the UNSTATABLE rules."""
    if getattr(failure, "code", None) != "ST202":
        return True
    try:
        errors = json.loads(response.content).get("errors") or []
    except (ValueError, TypeError, AttributeError):
        return True
    operation = f"{case.operation.method.upper()} {case.operation.path}"
    return not _unstatable(operation, response.status_code, errors)
