"""A DevTools protocol connection of a story's own to the browser Selenium drives, for what `execute_cdp_cmd`
can't do: hear events. Chromium takes several clients at once, so ChromeDriver keeps its own.

    tools = DevTools(driver)
    page = tools.attach_page(driver.current_url)
    tools.command("ServiceWorker.enable", session=page)
    update = tools.wait_for_event("ServiceWorker.workerRegistrationUpdated", lambda p: p["registrations"], page)

https://chromedevtools.github.io/devtools-protocol/
"""

import json
import time
import urllib.request

import websocket  # websocket-client, which Selenium brings


class DevToolsError(Exception):
    pass


class DevTools:
    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(endpoint, timeout=10, suppress_origin=True)
        self.next_id = 0
        self.events = []  # every event heard, in order: {"method", "params", "sessionId"}

    def close(self):
        self.socket.close()

    def command(self, method, params=None, session=None):
        """Sends a command (to a target's `session`, or the browser's) and answers its result."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            received = self.receive(deadline=time.monotonic() + 10)
            if received is None:
                raise DevToolsError(f"{method} got no answer")
            if received.get("id") == self.next_id:
                if "error" in received:
                    raise DevToolsError(f"{method}: {received['error']}")
                return received["result"]

    def wait_for_event(self, method, matches=lambda params: True, session=None, timeout=10):
        """The first event `method` heard (before or now) whose params `matches`, waiting for it."""
        seen = 0
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events[seen:]:
                if event["method"] == method and event.get("sessionId") == session and matches(event["params"]):
                    return event["params"]
            seen = len(self.events)
            if self.receive(deadline) is None:
                raise DevToolsError(f"no {method} came in {timeout} s")

    def attach_page(self, url):
        """A session on the tab showing `url`, through which its events come."""
        pages = [t for t in self.command("Target.getTargets")["targetInfos"] if t["type"] == "page" and t["url"] == url]
        if not pages:
            raise DevToolsError(f"no tab shows {url}")
        return self.command("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})["sessionId"]

    def receive(self, deadline):
        """The next message, or None at the deadline; an event is also kept in `events`."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        self.socket.settimeout(remaining)
        try:
            message = json.loads(self.socket.recv())
        except websocket.WebSocketTimeoutException:
            return None
        if "method" in message:
            self.events.append(message)
        return message
