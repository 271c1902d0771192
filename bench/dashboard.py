#!/usr/bin/env python3
"""The dashboard's answer time with a million events stored (make bench).

Starts ctfo-server on loopback (SQLite, a temp folder, an admin token), stores EVENTS events
through the real API (POST /v1/events, 2,000 a request, from 50 installs, a third of them
final reactions to the bundled cards), then times GET /dashboard: ROUNDS requests, one at a
time, on one kept-alive connection. Prints the ingest rate and the answer's median and p99.

Usage: bench/dashboard.py SERVER_BINARY [EVENTS] [ROUNDS]
"""
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

server_binary = sys.argv[1]
events_wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 200
batch = 2000
installs = 50
token = "bench-admin-token-0123456789"


def main():
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "token"), "w") as f:
            f.write(token + "\n")
        server = subprocess.Popen(
            [server_binary, "serve", "--port", "0", "--data", os.path.join(folder, "data"),
             "--admin-token-file", os.path.join(folder, "token"), "--rate-limit", "100000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = server.stdout.readline()
            port = int(line.rsplit(":", 1)[1])
            run(port)
        finally:
            server.terminate()
            server.wait(timeout=30)


def run(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(method, path, body=None, headers=None):
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.read()

    tokens = []
    for i in range(installs):
        body = json.dumps({"installId": f"bench-{i}", "device": {"platform": "linux",
                           "app": "bench", "locale": "C"}, "user": {}, "clientTime": 0})
        status, data = request("POST", "/v1/auth", body, {"Content-Type": "application/json"})
        assert status == 200, (status, data)
        tokens.append(json.loads(data)["token"])
    status, data = request("GET", "/v1/pull?feed=recent", None,
                           {"Authorization": f"Bearer {tokens[0]}"})
    cards = [(c["id"], c["type"]) for c in json.loads(data)["cards"]]
    rng = random.Random(7)
    now = int(time.time() * 1000)
    sent = 0
    started = time.monotonic()
    while sent < events_wanted:
        install = sent // batch % installs
        events = []
        for n in range(min(batch, events_wanted - sent)):
            properties = {"time": now, "distinct_id": f"bench-{install}",
                          "$insert_id": f"b{sent + n:09d}"}
            if n % 3 == 0:
                card, kind = rng.choice(cards)
                properties.update(card_id=card, card_type=kind)
                name = rng.choice(["CTFO", "TFU", "TIFB"])
            else:
                name = rng.choice(["app_open", "card_seen", "history_opened"])
            events.append({"event": name, "properties": properties})
        status, data = request("POST", "/v1/events", json.dumps(events), {
            "Authorization": f"Bearer {tokens[install]}", "Content-Type": "application/json"})
        assert 200 <= status < 300, (status, data[:200])
        sent += len(events)
    took = time.monotonic() - started
    print(f"stored {sent:,} events through POST /v1/events in {took:.0f} s ({sent / took:,.0f}/s)")
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(5):
        request("GET", "/dashboard", None, headers)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        status, data = request("GET", "/dashboard", None, headers)
        times.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"GET /dashboard with {sent:,} events stored, {rounds} requests one at a time: "
          f"median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms, max {times[-1]:.2f} ms "
          f"({len(data):,} bytes; goal < 100 ms)")


main()
