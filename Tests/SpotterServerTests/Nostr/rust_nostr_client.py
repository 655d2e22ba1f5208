"""rust-nostr (PyPI nostr-sdk) as a Nostr client, for the relay's interoperability tests.

    rust_nostr_client.py publish <relay> <secret-hex> <kind> <content> <tags-json> [created_at]
        signs with rust-nostr and publishes; prints {"id", "accepted", "message"} as one JSON line.
    rust_nostr_client.py subscribe <relay> <filter-json> <count> [timeout-seconds]
        subscribes; prints "READY" once the subscription is open (after EOSE), then each event's JSON on its
        own line as it arrives (stored events first), until <count> events or the timeout.
"""
import asyncio
import json
import sys

from nostr_sdk import Client, EventBuilder, Filter, Keys, Kind, RelayUrl, ReqTarget, Tag, Timestamp


async def publish(relay, secret, kind, content, tags_json, created_at=None):
    keys = Keys.parse(secret)
    builder = EventBuilder(Kind(int(kind)), content).tags([Tag.parse(t) for t in json.loads(tags_json)])
    if created_at is not None:
        builder = builder.custom_created_at(Timestamp.from_secs(int(created_at)))
    event = builder.finalize(keys)
    client = Client()
    url = RelayUrl.parse(relay)
    await client.add_relay(url)
    await client.connect()
    await client.try_connect(_seconds(5))
    output = await client.send_event(event)
    failed = {str(k): v for k, v in output.failed.items()}
    accepted = len(output.success) > 0
    message = next(iter(failed.values()), "")
    print(json.dumps({"id": event.id().to_hex(), "accepted": accepted, "message": message,
                      "event": json.loads(event.as_json())}), flush=True)
    await client.shutdown()


async def subscribe(relay, filter_json, count, timeout=10):
    client = Client()
    await client.add_relay(RelayUrl.parse(relay))
    await client.connect()
    await client.try_connect(_seconds(5))
    events = await client.fetch_events(ReqTarget.auto([Filter.from_json(filter_json)]), _seconds(5))
    seen = set()
    for event in events:
        seen.add(event.id().to_hex())
        print(event.as_json(), flush=True)
    print("READY", flush=True)
    received = len(events)
    notifications = client.notifications()
    await client.subscribe(ReqTarget.auto([Filter.from_json(filter_json)]))
    deadline = asyncio.get_event_loop().time() + float(timeout)
    while received < int(count):
        remaining = deadline - asyncio.get_event_loop().time()
        if remaining <= 0:
            break
        try:
            notification = await asyncio.wait_for(notifications.next(), remaining)
        except asyncio.TimeoutError:
            break
        if notification is None:
            break
        if notification.is_new_event():
            event = notification.event
            if event.id().to_hex() not in seen:
                seen.add(event.id().to_hex())
                received += 1
                print(event.as_json(), flush=True)
    await client.shutdown()


def _seconds(value):
    from datetime import timedelta
    return timedelta(seconds=value)


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    asyncio.run({"publish": publish, "subscribe": subscribe}[command](*args))
