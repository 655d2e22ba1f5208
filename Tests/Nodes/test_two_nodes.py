"""Two Spotter nodes on one PostgreSQL behind nginx (deploy/nginx/spotter.conf), as scripts/nodes-test starts
them: every request goes through nginx, which spreads connections over both nodes, and live events must reach
sockets whichever node holds them and whichever node made the post."""

import asyncio
import json
import os
import re
import time
import unittest
import uuid
import urllib.request

import websockets

FRONT = os.environ["SPOTTER_FRONT"]
LOGS = os.environ["SPOTTER_NODE_LOGS"].split(":")
# Each node straight, not through nginx: to ask it how many sockets it holds.
NODES = os.environ["SPOTTER_NODES"].split()


def call(method, path, token=None, body=None):
    request = urllib.request.Request(FRONT + path, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(request, data, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def sign_up(name):
    tokens = call("POST", "/api/v1/auth/signup",
                  body={"email": f"{name}@example.com", "username": name, "password": "correct horse battery"})
    me = call("GET", "/api/v1/me", tokens["access_token"])
    return tokens["access_token"], me["id"]


def open_sockets(node):
    """The node's `spotter_realtime_connections` gauge, from its /metrics."""
    with urllib.request.urlopen(node + "/metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("spotter_realtime_connections"):
                return float(line.split()[-1])
    return 0.0


def served(log, pattern):
    with open(log) as file:
        return len(re.findall(pattern, file.read()))


class TwoNodesBehindNginx(unittest.TestCase):
    def test_posts_reach_sockets_on_either_node(self):
        suffix = uuid.uuid4().hex[:6]
        ana, ana_id = sign_up(f"ana_{suffix}")
        ben, ben_id = sign_up(f"ben_{suffix}")
        call("POST", f"/api/v1/users/ana_{suffix}/follow", ben)
        texts = [f"Tempo run {n} #running {suffix}" for n in range(4)]
        received, sockets = asyncio.run(self.listen_and_post(ben, ben_id, ana, texts))
        # Each socket (nginx put one on each node) hears every post, whichever node made it
        for index, seen in enumerate(received):
            self.assertEqual(sorted(seen), sorted(texts), f"socket {index} heard {seen}")
        # and the nodes' own logs show it was spread: a socket on each, posts made by both
        posts = [served(log, r"POST /api/v1/posts 201") for log in LOGS]
        self.assertEqual(sockets, [1.0, 1.0], f"sockets per node: {sockets}")
        self.assertTrue(all(count >= 1 for count in posts), f"posts per node: {posts}")

    async def listen_and_post(self, token, user_id, author, texts):
        url = FRONT.replace("http", "ws") + f"/socket/websocket?vsn=2.0.0&token={token}"
        topic = f"feed:{user_id}"
        sockets = [await websockets.connect(url, ping_interval=None) for _ in range(2)]
        try:
            for socket in sockets:
                await socket.send(json.dumps(["1", "1", topic, "phx_join", {}]))
                while True:  # the join's reply
                    frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
                    if frame[3] == "phx_reply":
                        self.assertEqual(frame[4]["status"], "ok", frame)
                        break
            sockets_per_node = [open_sockets(node) for node in NODES]
            # One post a request: nginx sends them to both nodes in turn
            for text in texts:
                call("POST", "/api/v1/posts", author, {"kind": "note", "text": text, "visibility": "public"})
            received = []
            for socket in sockets:
                seen, deadline = [], time.monotonic() + 20
                while len(seen) < len(texts) and time.monotonic() < deadline:
                    try:
                        frame = json.loads(await asyncio.wait_for(socket.recv(), deadline - time.monotonic()))
                    except asyncio.TimeoutError:
                        break
                    if frame[2] == topic and frame[3] == "new_post":
                        seen.append(frame[4]["text"])
                received.append(seen)
            return received, sockets_per_node
        finally:
            for socket in sockets:
                await socket.close()


if __name__ == "__main__":
    unittest.main()
