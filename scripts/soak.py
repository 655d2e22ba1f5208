"""The soak of scripts/soak: everything a stranger, a slow network and a busy community do to one server at once.

For SOAK_SECONDS (600 by default) it keeps up, against a running `spotter serve`:
  - 300 idle connections and 200 slowloris connections (a header byte every few seconds), reopened as the
    server lets them go;
  - a malformed request every 100 ms (each must be answered 4xx and closed);
  - 200 Phoenix sockets joined to the community feed, heartbeating;
  - a steady write load: posts with Idempotency-Keys, each acknowledged id remembered;
  - a /healthz probe every 50 ms on a new connection, timed.
Each kind comes from its own loopback addresses (127.0.0.2 …), as separate clients would, so the per-address cap
applies to each as it would in the field. Afterwards it checks that every acknowledged post is there, and
watches the server's descriptors and memory come back for up to a minute.

Prints a JSON summary and exits 1 if a goal is missed: /healthz p99 < 100 ms; within a minute after, the
server's sockets back to their starting count (its database pool's files are reported apart) and resident
memory back within 10% of its level after warm-up, plus what the database grew meanwhile (SQLite's writer
keeps the pages it wrote in its page cache, up to 64 MB by design); nothing acknowledged lost; no 5xx.
"""

import asyncio
import json
import os
import random
import statistics
import sys
import time
import uuid

import websockets

BASE_HOST, PORT, PID = "127.0.0.1", int(sys.argv[1]), int(sys.argv[2])
DATABASE = sys.argv[3] if len(sys.argv) > 3 else None  # the SQLite file, when the server runs on SQLite
SECONDS = float(os.environ.get("SOAK_SECONDS", "600"))
IDLE, SLOW, SOCKETS = 300, 200, 200
WRITERS, WRITES_PER_SECOND = 4, 20

MALFORMED = [
    b"\x00\x01\x02 garbage\r\n\r\n",
    b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"GET /healthz HTTP/3.0\r\nHost: a\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: " + b"a" * 40000 + b"\r\n\r\n",
    b"POST /api/v1/auth/signin HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n",
]

stats = {
    "healthz_ms": [], "healthz_failed": 0, "malformed_sent": 0, "malformed_unanswered": 0,
    "idle_reopened": 0, "slow_reopened": 0, "socket_messages": 0, "socket_drops": 0,
    "writes_acknowledged": 0, "writes_refused": {}, "server_errors": 0,
}
acknowledged = []


def descriptors():
    return len(os.listdir(f"/proc/{PID}/fd"))


def sockets():
    """The server's network descriptors: what connections take. (Its database files are a pool that opens
    readers as concurrency asks, up to its maximum, and keeps them: they are counted apart.)"""
    return open_files().get("socket", 0)


def open_files():
    """What the server's descriptors are, by kind: sockets, pipes, and files by name."""
    kinds = {}
    for fd in os.listdir(f"/proc/{PID}/fd"):
        try:
            target = os.readlink(f"/proc/{PID}/fd/{fd}")
        except OSError:
            continue
        kind = target.split(":")[0] if target.startswith(("socket:", "pipe:", "anon_inode:")) else target
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def database_mb():
    try:
        return sum(os.path.getsize(DATABASE + suffix) for suffix in ("", "-wal") if os.path.exists(DATABASE + suffix)) / 2**20
    except (TypeError, OSError):
        return 0.0


def rss_mb():
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


open_writers = set()


async def connect(source):
    """A connection from `source`, remembered until closed, so the load's end closes every one of them (the
    server's descriptors are then its own, not the soak's)."""
    reader, writer = await asyncio.open_connection(BASE_HOST, PORT, local_addr=(source, 0))
    open_writers.add(writer)
    return reader, writer


async def request(reader, writer, method, path, body=None, token=None, headers=None):
    """One HTTP/1.1 request on a kept-alive connection; returns (status, parsed JSON body or None)."""
    data = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: soak", f"Content-Length: {len(data)}"]
    if body is not None:
        lines.append("Content-Type: application/json")
    if token:
        lines.append(f"Authorization: Bearer {token}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    payload = await reader.readexactly(length) if length else b""
    return status, (json.loads(payload) if payload else None)


async def signup(name):
    reader, writer = await connect("127.0.0.5")
    status, body = await request(reader, writer, "POST", "/api/v1/auth/signup", {
        "email": f"{name}@example.com", "username": name, "password": "correct horse battery"})
    writer.close()
    assert status == 201, (status, body)
    return body["access_token"]


async def idle_connection(source, stop):
    while not stop.is_set():
        try:
            reader, writer = await connect(source)
            opened = time.monotonic()
            await reader.read()  # until the server lets it go (its idle timeout)
            writer.close()
            stats["idle_reopened"] += 1
            if time.monotonic() - opened < 1:
                stats["idle_refused"] = stats.get("idle_refused", 0) + 1
                await asyncio.sleep(1)  # refused (over a cap): as a client would, wait before trying again
        except OSError:
            await asyncio.sleep(1)


async def read_quietly(reader):
    """Reads until the server closes; a reset or a broken pipe is a close too."""
    try:
        return await reader.read()
    except OSError:
        return b""


async def slow_connection(stop):
    while not stop.is_set():
        try:
            reader, writer = await connect("127.0.0.8")
            writer.write(b"GET /healthz HTTP/1.1\r\n")
            read = asyncio.ensure_future(read_quietly(reader))
            while not read.done() and not stop.is_set():
                writer.write(b"X")  # one byte of a header that never ends
                await asyncio.wait([read], timeout=3)
            writer.close()
            stats["slow_reopened"] += 1
        except OSError:
            await asyncio.sleep(1)


async def malformed(stop):
    while not stop.is_set():
        await asyncio.sleep(0.1)
        try:
            reader, writer = await connect("127.0.0.7")
            writer.write(random.choice(MALFORMED))
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 5)
            stats["malformed_sent"] += 1
            if not answer.startswith(b"HTTP/1.1 4"):
                stats["malformed_unanswered"] += 1
            writer.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            stats["malformed_sent"] += 1
            stats["malformed_unanswered"] += 1


async def phoenix_socket(token, stop):
    url = f"ws://{BASE_HOST}:{PORT}/socket/websocket?vsn=2.0.0&token={token}"
    while not stop.is_set():
        try:
            async with websockets.connect(url, local_addr=("127.0.0.4", 0), ping_interval=None) as socket:
                await socket.send(json.dumps(["1", "1", "community:feed", "phx_join", {"presence": False}]))
                ref, beat = 2, time.monotonic()
                while not stop.is_set():
                    try:
                        await asyncio.wait_for(socket.recv(), 5)
                        stats["socket_messages"] += 1
                    except asyncio.TimeoutError:
                        pass
                    if time.monotonic() - beat > 20:  # Phoenix's heartbeat, whatever else arrives
                        await socket.send(json.dumps([None, str(ref), "phoenix", "heartbeat", {}]))
                        ref, beat = ref + 1, time.monotonic()
        except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
            if not stop.is_set():
                stats["socket_drops"] += 1
                await asyncio.sleep(1)


async def writer_loop(token, stop):
    reader, writer = await connect("127.0.0.5")
    interval = WRITERS / WRITES_PER_SECOND
    while not stop.is_set():
        await asyncio.sleep(interval)
        key = str(uuid.uuid4())
        text = f"soak post {key[:8]} #running"
        try:
            status, body = await request(
                reader, writer, "POST", "/api/v1/posts", {"kind": "note", "text": text}, token, {"Idempotency-Key": key})
        except (OSError, asyncio.IncompleteReadError):
            reader, writer = await connect("127.0.0.5")
            continue
        if status == 201:
            stats["writes_acknowledged"] += 1
            acknowledged.append((body["id"], text))
        else:
            stats["writes_refused"][status] = stats["writes_refused"].get(status, 0) + 1
            if status >= 500:
                stats["server_errors"] += 1
    writer.close()


async def healthz_probe(stop):
    while not stop.is_set():
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(connect("127.0.0.6"), 5)
            status, _ = await asyncio.wait_for(request(reader, writer, "GET", "/healthz"), 5)
            writer.close()
            if status != 200:
                stats["healthz_failed"] += 1
            stats["healthz_ms"].append((time.perf_counter() - started) * 1000)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            stats["healthz_failed"] += 1
            stats["healthz_ms"].append(5000.0)


async def verify(token):
    """Every acknowledged post is there with its text."""
    reader, writer = await connect("127.0.0.5")
    lost = 0
    for post_id, text in acknowledged:
        status, body = await request(reader, writer, "GET", f"/api/v1/posts/{post_id}", token=token)
        if status != 200 or body.get("text") != text:
            lost += 1
    writer.close()
    return lost


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else None


async def main():
    tokens = [await signup(f"soak{i}") for i in range(WRITERS)]
    reader_token = await signup("soakreader")
    # The starting level: the server once it has served each kind of request (its database pools open).
    reader, writer = await connect("127.0.0.5")
    status, post = await request(reader, writer, "POST", "/api/v1/posts", {"kind": "note", "text": "warm"}, tokens[0])
    assert status == 201, (status, post)
    await request(reader, writer, "GET", f"/api/v1/posts/{post['id']}", token=reader_token)
    writer.close()
    await asyncio.sleep(1)
    start_fds, start_rss, start_files, start_sockets = descriptors(), rss_mb(), open_files(), sockets()
    stop = asyncio.Event()
    # Two addresses share the idle connections, so each stays under the per-address cap (256).
    tasks = [asyncio.ensure_future(idle_connection(f"127.0.0.{2 + i % 2}", stop)) for i in range(IDLE)]
    tasks += [asyncio.ensure_future(slow_connection(stop)) for _ in range(SLOW)]
    tasks += [asyncio.ensure_future(phoenix_socket(reader_token, stop)) for _ in range(SOCKETS)]
    tasks += [asyncio.ensure_future(writer_loop(token, stop)) for token in tokens]
    tasks += [asyncio.ensure_future(malformed(stop)), asyncio.ensure_future(healthz_probe(stop))]
    began = time.monotonic()
    peak_fds, peak_rss, warm_rss, warm_db = start_fds, start_rss, None, 0.0
    rss_timeline = []
    while time.monotonic() - began < SECONDS:
        await asyncio.sleep(5)
        peak_fds, peak_rss = max(peak_fds, descriptors()), max(peak_rss, rss_mb())
        if int(time.monotonic() - began) // 60 > len(rss_timeline) - 1:
            rss_timeline.append(round(rss_mb(), 1))  # each minute
        if warm_rss is None and time.monotonic() - began >= min(60, SECONDS / 4):
            warm_rss, warm_db = rss_mb(), database_mb()  # the level the load settles at, pools filled
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for writer in open_writers:
        writer.close()
    stopped = time.monotonic()

    lost = await verify(reader_token)
    fds_back = rss_back = None
    while time.monotonic() - stopped < 60:
        if fds_back is None and sockets() <= start_sockets:
            fds_back = round(time.monotonic() - stopped, 1)
        # The database grew under the writes, and SQLite's writer keeps the pages it wrote in its page cache
        # (up to 64 MB by design, see SQLiteStorage): that much growth is the cache, not the load's leftovers.
        allowed = (warm_rss or start_rss) * 1.10 + min(64.0, max(0.0, database_mb() - warm_db))
        if rss_back is None and rss_mb() <= allowed:
            rss_back = round(time.monotonic() - stopped, 1)
        if fds_back is not None and rss_back is not None:
            break
        await asyncio.sleep(1)

    latencies = stats.pop("healthz_ms")
    summary = {
        "seconds": SECONDS, **stats,
        "healthz_probes": len(latencies),
        "healthz_p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "healthz_p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
        "healthz_max_ms": round(max(latencies), 2) if latencies else None,
        "acknowledged_lost": lost,
        "descriptors": {"start": start_fds, "peak": peak_fds, "end": descriptors(), "back_after_s": fds_back,
                        "start_kinds": start_files, "end_kinds": open_files()},
        "rss_mb": {"start": round(start_rss, 1), "warm": round(warm_rss or 0, 1), "peak": round(peak_rss, 1),
                   "end": round(rss_mb(), 1), "back_after_s": rss_back, "each_minute": rss_timeline,
                   "database_growth_since_warm_mb": round(database_mb() - warm_db, 1)},
    }
    print(json.dumps(summary, indent=2))
    ok = (summary["healthz_p99_ms"] is not None and summary["healthz_p99_ms"] < 100 and lost == 0
          and fds_back is not None and rss_back is not None and stats["server_errors"] == 0
          and stats["malformed_unanswered"] == 0 and stats["writes_acknowledged"] > 0)
    print("soak passed" if ok else "soak FAILED")
    return 0 if ok else 1


sys.exit(asyncio.run(main()))
