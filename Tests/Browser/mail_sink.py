"""A local SMTP server for the browser stories: every message it is given is written to a folder, one file
each (named so the newest sorts last), for a story to read as a person reads their inbox.

Usage: python mail_sink.py PORT FOLDER   (scripts/browser-test starts it before the server, and stops it)
"""

import asyncio
import os
import sys
import time

from aiosmtpd.controller import Controller


class FolderHandler:
    def __init__(self, folder):
        self.folder = folder

    async def handle_DATA(self, server, session, envelope):
        name = f"{time.time_ns()}.eml"
        path = os.path.join(self.folder, name)
        with open(path + ".part", "wb") as file:
            file.write(envelope.original_content or envelope.content)
        os.replace(path + ".part", path)  # whole files only: a story never reads half a message
        return "250 OK"


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    controller = Controller(FolderHandler(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print(f"mail sink on 127.0.0.1:{port} writing to {folder}", flush=True)
    try:
        asyncio.run(asyncio.Event().wait())
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
