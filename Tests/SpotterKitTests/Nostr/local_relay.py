"""An external Nostr relay for SpotterKit's tests: rust-nostr's `LocalRelay` (PyPI `nostr-sdk`).

    .venv/bin/python Tests/SpotterKitTests/Nostr/local_relay.py [--port N] [--log FILE] [--refuse MESSAGE]

Prints its URL (`ws://127.0.0.1:<port>`) on the first line of stdout once it listens, then runs until killed
(SIGKILL: the relay's runtime keeps the process alive past SIGTERM, and a killed relay is a realistic "down"). Start it again with the same `--port` to bring a relay that was "down" back.

--log FILE     appends the id of every EVENT the relay is offered (before it stores or refuses it), one a
               line, so a test can count deliveries across restarts, duplicates included.
--refuse TEXT  refuses every event with this message (`blocked: …`, `invalid: …`).
"""

import argparse
import asyncio
import sys

from nostr_sdk import LocalRelayBuilder, RateLimit, WritePolicy, WritePolicyResult, uniffi_set_event_loop


class Policy(WritePolicy):
    def __init__(self, log, refuse):
        self.log = log
        self.refuse = refuse

    async def admit_event(self, event, socket_addr):
        if self.log:
            with open(self.log, "a") as file:
                file.write(event.id().to_hex() + "\n")
        if self.refuse:
            return WritePolicyResult.REJECT(self.refuse)
        return WritePolicyResult.ACCEPT()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    parser.add_argument("--refuse")
    args = parser.parse_args()
    # The write policy is called from the relay's own threads: give them this loop.
    uniffi_set_event_loop(asyncio.get_running_loop())

    builder = (
        LocalRelayBuilder()
        .addr("127.0.0.1")
        .rate_limit(RateLimit(max_reqs=1000, notes_per_minute=100000))
        .write_policy(Policy(args.log, args.refuse))
    )
    if args.port:
        builder = builder.port(args.port)
    relay = builder.build()
    await relay.run()
    print(str(await relay.url()), flush=True)

    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
