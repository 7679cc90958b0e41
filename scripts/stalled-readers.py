#!/usr/bin/env python3
"""Large solve answers and clients that never read them: the server's memory, measured.

Starts `baroque serve` (the release build, default settings but a fresh store) and sends it the
largest solve request a client can make within the default limits: an `h#3` of the Baroque back
rank with set play, `max_solutions` 10,000 and 25 twins. It reads one answer whole (its size and
time), then sends six more on connections that never read (each from its own socket with a small
receive buffer; a refusal for every search slot taken is read and retried), and watches the
server's RSS until `--write-timeout` has closed them all.

Usage: python3 scripts/stalled-readers.py [path/to/baroque]   (default target/release/baroque)
Prints one line per step and a summary; exits non-zero when the answer is over 16 MB, the RSS
rises more than 250 MB over the start, or the stalled connections are not closed within 90 s.
"""

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/baroque"
TWINS = [
    "rotate 90", "continued rotate 90", "mirror a1<->h1", "rotate 180", "continued mirror a1<->a8",
    "rotate 270", "mirror a1<->a8", "mirror a1<->h8", "continued rotate 90", "continued rotate 90",
    "polish", "continued rotate 90", "continued mirror a1<->h1", "rotate 90", "continued polish",
    "mirror a1<->h8", "continued rotate 180", "rotate 180", "continued polish", "rotate 270",
    "continued mirror a1<->h1", "mirror a1<->a8", "continued rotate 270", "polish",
    "continued rotate 180",
]
REQUEST = {
    "fen": "k7/8/8/8/8/8/8/RNBQKBNR b 0",
    "stipulation": "h#3",
    "set_play": True,
    "max_solutions": 10000,
    "limits": {"millis": 10000},
    "twins": TWINS,
}


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def request_bytes(addr):
    body = json.dumps(REQUEST).encode()
    head = (
        f"POST /v1/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head + body


def connect(addr, small_buffer):
    host, port = addr.rsplit(":", 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if small_buffer:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, int(port)))
    return s


def read_whole(s):
    data = b""
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            return data
        data += chunk


def metric(addr, name):
    s = connect(addr, False)
    s.sendall(f"GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n".encode())
    text = read_whole(s).decode(errors="replace")
    s.close()
    m = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [BINARY, "serve", "--addr", "127.0.0.1:0", "--db", os.path.join(tmp, "b.db"),
             "--no-seed"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "NO_COLOR": "1", "RUST_LOG": "info"},
        )
        addr = None
        for line in server.stdout:
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if m:
                addr = f"127.0.0.1:{m.group(1)}"
                break
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        if addr is None:
            print("the server did not say where it listens", file=sys.stderr)
            return 2
        try:
            time.sleep(1)
            start = rss_mib(server.pid)
            print(f"server {addr}, RSS at start {start:.0f} MiB")
            t = time.time()
            s = connect(addr, False)
            s.sendall(request_bytes(addr).replace(b"HTTP/1.1\r\n", b"HTTP/1.1\r\nConnection: close\r\n", 1))
            answer = read_whole(s)
            s.close()
            took = time.time() - t
            head, _, body = answer.partition(b"\r\n\r\n")
            size_mb = len(body) / 1e6
            print(f"answer read whole: {head.splitlines()[0].decode()}, {size_mb:.2f} MB in {took:.1f} s")
            doc = json.loads(body)
            lines = sum(len(x.get("solutions") or []) + len(x.get("short_solutions") or [])
                        + len((x.get("set_play") or {}).get("solutions") or [])
                        for x in [doc] + doc.get("twins", []))
            print(f"  {len(doc.get('twins', []))} twins, {lines} lines answered in all, "
                  f"budget_exhausted_by {doc.get('budget_exhausted_by')}")
            if len(body) > 16_000_000:
                failures.append(f"the answer is {size_mb:.1f} MB, over 16 MB")
            after_one = rss_mib(server.pid)
            print(f"RSS after one answer read: {after_one:.0f} MiB")
            stalled = []
            while len(stalled) < 6:
                s = connect(addr, True)
                s.sendall(request_bytes(addr))
                # Peek (the bytes stay unread) until the answer starts: 200 stays unread; a 503
                # (every search slot taken) is read and sent again a second later.
                while True:
                    first = s.recv(64, socket.MSG_PEEK)
                    if first:
                        break
                    time.sleep(0.05)
                if first.startswith(b"HTTP/1.1 200"):
                    stalled.append(s)
                    print(f"  stalled answer {len(stalled)} started; RSS {rss_mib(server.pid):.0f} MiB")
                else:
                    s.settimeout(5)
                    try:
                        s.recv(65536)
                    except OSError:
                        pass
                    s.close()
                    time.sleep(1)
            # Both searches finish their answers; give them a moment to be written.
            time.sleep(2)
            peak = rss_mib(server.pid)
            print(f"RSS with six answers unread: {peak:.0f} MiB (+{peak - start:.0f} MiB over the start)")
            if peak - start > 250:
                failures.append(f"RSS rose {peak - start:.0f} MiB over the start")
            t = time.time()
            closed = 0.0
            while time.time() - t < 90:
                closed = metric(addr, "baroque_http_write_timeouts_total")
                if closed >= 6:
                    break
                time.sleep(1)
            waited = time.time() - t
            time.sleep(2)
            after = rss_mib(server.pid)
            print(f"write timeouts counted: {closed:.0f} after {waited:.0f} s more; "
                  f"RSS then {after:.0f} MiB (+{after - start:.0f} MiB over the start)")
            if closed < 6:
                failures.append("the stalled connections were not all closed within 90 s")
            for s in stalled:
                s.close()
        finally:
            server.terminate()
            server.wait(timeout=60)
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
