"""rust-nostr's LocalRelay (PyPI nostr-sdk), as a reference relay for scripts/bench-relay.

Usage: localrelay.py PORT DATA_DIR|memory
Stores events in LMDB under DATA_DIR (rust-nostr's on-disk database), or with `memory` in the builder's default
database (in memory, not durable, and bounded in size), with the rate limit raised out of the way of a
benchmark; prints the relay's URL on one line once it listens, and serves until killed.
"""

import asyncio
import signal
import sys

from nostr_sdk import LocalRelayBuilder, NostrLmdb, RateLimit, uniffi_set_event_loop


async def main(port: int, data_dir: str) -> None:
    # The bindings pass NostrLmdb to the relay as a Python-implemented database (its class is not the
    # bindings' NostrDatabaseImpl), so the relay's calls come back through this event loop.
    uniffi_set_event_loop(asyncio.get_running_loop())
    builder = LocalRelayBuilder()
    if data_dir != "memory":
        builder = builder.database(await NostrLmdb.open(data_dir))
    builder = (
        builder.addr("127.0.0.1")
        .port(port)
        .rate_limit(RateLimit(max_reqs=1_000_000, notes_per_minute=100_000_000))
        .max_connections(100_000)
        .max_filter_limit(5_000)
    )
    relay = builder.build()
    await relay.run()
    print(await relay.url(), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    await stop.wait()
    relay.shutdown()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
