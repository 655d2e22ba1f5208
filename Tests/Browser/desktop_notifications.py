"""The desktop's notification server, played by a story: a private D-Bus session bus with a stand-in for
org.freedesktop.Notifications on it (jeepney, pure Python), as a Linux desktop runs one.

Chromium on Linux shows a web page's notifications through that server when the bus has one, rather than in its
own window; so a story sees each notification as the desktop would (`shown`), and can click one (`click`): the
server signals ActionInvoked(id, "default"), as when someone clicks a notification's body, and Chromium fires a
real `notificationclick` in the page's service worker, with the user activation that lets the worker focus or
open a window. Chromium has no other way to click one: the DevTools protocol can deliver a push but not a click.

    notifications = DesktopNotifications()
    driver = browser(env=notifications.environment)
    ...
    shown = notifications.wait_for(lambda n: n["summary"] == "Ana gave kudos")
    notifications.click(shown["id"])

The notification server protocol: https://specifications.freedesktop.org/notification-spec/latest/
"""

import os
import queue
import subprocess
import tempfile
import threading
import time

from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
OBJECT = DBusAddress("/org/freedesktop/Notifications", interface=NAME)

# A session bus of its own: anyone on this machine's user may connect, nothing is started on demand (so Chromium's
# accessibility bus is not), and the stand-in may own the name.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class DesktopNotifications:
    """A session bus and a notification server on it, until `stop`."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="spotter-dbus.")
        config = os.path.join(self.folder, "bus.conf")
        with open(config, "w") as file:
            file.write(BUS_CONFIG.format(folder=self.folder))
        self.bus = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork", "--print-address"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.bus.stdout.readline().strip()
        if not self.address:
            raise RuntimeError("dbus-daemon did not start")
        self.environment = {"DBUS_SESSION_BUS_ADDRESS": self.address}
        self.shown = []  # every Notify, in order: {"id", "summary", "body", "actions", "closed"}
        self.lock = threading.Lock()
        self.outbox = queue.Queue()  # signals to send, sent by the serving thread (jeepney's connection is its)
        self.stopping = threading.Event()
        self.connection = open_dbus_connection(bus=self.address)
        reply = self.connection.send_and_get_reply(message_bus.RequestName(NAME))
        if reply.body != (1,):  # DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
            self.connection.close()
            self.bus.terminate()
            raise RuntimeError(f"could not own {NAME}: {reply.body}")
        self.thread = threading.Thread(target=self.serve, name="desktop-notifications", daemon=True)
        self.thread.start()

    # --- what a story does ----------------------------------------------------------------------------------

    def wait_for(self, matches, timeout=10):
        """The latest notification shown that `matches`, waiting for it; AssertionError if none comes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [n for n in self.shown if matches(n)]
            if found:
                return found[-1]
            time.sleep(0.05)
        with self.lock:
            raise AssertionError(f"no such notification was shown; shown: {self.shown}")

    def click(self, notification_id):
        """Clicks the notification's body, as someone at the desktop would."""
        self.outbox.put(new_signal(OBJECT, "ActionInvoked", "us", (notification_id, "default")))

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        self.connection.close()
        self.bus.terminate()
        self.bus.wait(timeout=5)

    # --- the server -----------------------------------------------------------------------------------------

    def serve(self):
        while not self.stopping.is_set():
            while not self.outbox.empty():
                self.connection.send(self.outbox.get())
            try:
                message = self.connection.receive(timeout=0.05)
            except TimeoutError:
                continue
            if message.header.message_type == MessageType.method_call:
                self.connection.send(self.answer(message))

    def answer(self, message):
        member = message.header.fields.get(HeaderFields.member)
        if member == "GetCapabilities":
            return new_method_return(message, "as", (["actions", "body"],))
        if member == "GetServerInformation":
            return new_method_return(message, "ssss", ("Spotter story", "spotter", "1", "1.2"))
        if member == "Notify":
            _app, replaces, _icon, summary, body, actions, _hints, _timeout = message.body
            with self.lock:
                identifier = replaces or len(self.shown) + 1
                self.shown.append({"id": identifier, "summary": summary, "body": body, "actions": actions,
                                   "closed": False})
            return new_method_return(message, "u", (identifier,))
        if member == "CloseNotification":
            (identifier,) = message.body
            with self.lock:
                for notification in self.shown:
                    if notification["id"] == identifier:
                        notification["closed"] = True
            self.outbox.put(new_signal(OBJECT, "NotificationClosed", "uu", (identifier, 3)))  # 3: closed by a call
            return new_method_return(message)
        return new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"no method {member}",))
