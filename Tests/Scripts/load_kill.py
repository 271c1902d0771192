#!/usr/bin/env python3
"""Simulated ctfo clients for scripts/load-kill-test.sh (Python 3 standard library only).

  load_kill.py run URL --clients N --duration S --out RESULT.json
      N threads, each one install: an auth, then pulls (If-None-Match of its last ETag, gzip
      now and then) and batches of events until S seconds have passed. A batch that gets no
      2xx (an error status or a broken connection) is sent again later, the same batch with
      the same $insert_ids, as the app does. After S seconds each client sends what it still
      holds (a few tries) and makes one last pull on a new connection. RESULT.json holds the
      counts and, per install, the $insert_ids sent and those acknowledged.

  load_kill.py check RESULT.json ROWS [--kill-at S --restart-at S]
      ROWS holds the store's ctfo events, one "owner|insert_id|copies" a line. Checks that
      every acknowledged event is stored exactly once under its install, that no event sent
      is stored twice, that nothing else is stored, that every client authenticated and that
      every last pull succeeded; prints the counts and PASS or FAIL (exit status 1).
"""

import argparse
import collections
import gzip
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse


class Client:
    """One simulated install: its own keep-alive connection, token, ETag and unsent batches."""

    def __init__(self, index, host, port, run_id, think, rng):
        self.index = index
        self.host, self.port = host, port
        self.install = f"load-{run_id}-{index:03d}"
        self.think = think
        self.rng = rng
        self.conn = None
        self.token = None
        self.etag = None
        self.card_ids = []
        self.pending = []  # batches not yet acknowledged: lists of (insert_id, event dict)
        self.next_event = 0
        self.sent = set()
        self.acked = []
        self.requests = 0
        self.status = collections.Counter()  # (route, status) -> answers
        self.errors = collections.Counter()  # (route, exception name) -> connection errors
        self.pulls = collections.Counter()  # 200, 304
        self.batches_acked = 0
        self.retries = 0
        self.final_pull = None

    def request(self, route, method, path, body=None, headers=None, fresh=False):
        """Sends one request; (status, headers, body), or None after a connection error."""
        if fresh and self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=15)
        self.requests += 1
        try:
            self.conn.request(method, path, body=body, headers=headers or {})
            answer = self.conn.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException) as error:
            self.errors[(route, type(error).__name__)] += 1
            self.conn.close()
            self.conn = None
            return None
        self.status[(route, answer.status)] += 1
        if answer.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return answer.status, answer, data

    def auth(self, deadline):
        body = json.dumps({
            "installId": self.install,
            "device": {"platform": "linux", "app": "load-kill", "locale": "C"},
            "user": {},
            "clientTime": int(time.time() * 1000),
        })
        while time.monotonic() < deadline:
            got = self.request("auth", "POST", "/v1/auth", body, {"Content-Type": "application/json"})
            if got and got[0] == 200:
                self.token = json.loads(got[2])["token"]
                return True
            time.sleep(0.2 + self.rng.random() * 0.3)
        return False

    def pull(self, fresh=False):
        headers = {"Authorization": f"Bearer {self.token}"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        zipped = self.rng.random() < 0.3
        if zipped:
            headers["Accept-Encoding"] = "gzip"
        got = self.request("pull", "GET", "/v1/pull?feed=hot", None, headers, fresh=fresh)
        if got is None:
            return None
        status, answer, data = got
        if status == 200:
            if answer.getheader("Content-Encoding") == "gzip":
                data = gzip.decompress(data)
            pulled = json.loads(data)
            if not self.card_ids:
                self.card_ids = [card["id"] for card in pulled.get("cards", [])][:50]
            self.etag = answer.getheader("ETag") or self.etag
            self.pulls[200] += 1
        elif status == 304:
            self.pulls[304] += 1
        return status

    def new_batch(self):
        batch = []
        for _ in range(self.rng.randint(1, 10)):
            self.next_event += 1
            insert = f"{self.install}-{self.next_event:06d}"  # at most 36 of [A-Za-z0-9-]
            properties = {
                "time": int(time.time() * 1000),
                "distinct_id": self.install,
                "$insert_id": insert,
            }
            if self.card_ids:
                properties["card_id"] = self.rng.choice(self.card_ids)
                name = self.rng.choice(["card_seen", "card_ctfo", "card_skip"])
            else:
                name = "app_open"
            batch.append((insert, {"event": name, "properties": properties}))
            self.sent.add(insert)
        return batch

    def post_events(self):
        """Sends the oldest unacknowledged batch, or a new one; True on a 2xx."""
        if self.pending:
            self.retries += 1
        else:
            self.pending.append(self.new_batch())
        batch = self.pending[0]
        body = json.dumps([event for _, event in batch])
        got = self.request("events", "POST", "/v1/events", body, {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "X-CTFO-Sent-At": str(int(time.time() * 1000)),
        })
        if got and 200 <= got[0] < 300:
            self.acked.extend(insert for insert, _ in batch)
            self.batches_acked += 1
            self.pending.pop(0)
            return True
        return False

    def run(self, deadline, end_by):
        if not self.auth(end_by):
            return
        while time.monotonic() < deadline:
            self.pull()
            # A few batches between pulls, as the app flushes events between its pulls.
            for _ in range(self.rng.randint(1, 3)):
                self.post_events()
                time.sleep(self.rng.random() * self.think)
        # Whatever is unsent goes out now, a few tries, as the app flushes at its next launch.
        tries = 0
        while self.pending and tries < 20 and time.monotonic() < end_by:
            if not self.post_events():
                tries += 1
                time.sleep(0.25)
        self.final_pull = self.pull(fresh=True)
        if self.conn is not None:
            self.conn.close()


def run(args):
    url = urllib.parse.urlsplit(args.url)
    run_id = f"{int(time.time()) % 100000:05d}"
    started = time.monotonic()
    deadline = started + args.duration
    end_by = deadline + args.flush_seconds
    clients = [
        Client(i, url.hostname, url.port, run_id, args.think, random.Random(args.seed * 1000 + i))
        for i in range(args.clients)
    ]
    threads = [threading.Thread(target=c.run, args=(deadline, end_by), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.1, end_by + 30 - time.monotonic()))
    hung = sum(thread.is_alive() for thread in threads)
    status = collections.Counter()
    errors = collections.Counter()
    for client in clients:
        status.update(client.status)
        errors.update(client.errors)
    result = {
        "clients": args.clients,
        "duration": args.duration,
        "elapsed": round(time.monotonic() - started, 1),
        "hung_clients": hung,
        "authenticated": sum(c.token is not None for c in clients),
        "requests": sum(c.requests for c in clients),
        "pulls_200": sum(c.pulls[200] for c in clients),
        "pulls_304": sum(c.pulls[304] for c in clients),
        "batches_acked": sum(c.batches_acked for c in clients),
        "batch_retries": sum(c.retries for c in clients),
        "status": {f"{route} {code}": n for (route, code), n in sorted(status.items())},
        "connection_errors": {f"{route} {name}": n for (route, name), n in sorted(errors.items())},
        "final_pulls": {str(k): v for k, v in collections.Counter(c.final_pull for c in clients).items()},
        "installs": {
            c.install: {"sent": sorted(c.sent), "acked": c.acked, "pending": sum(len(b) for b in c.pending)}
            for c in clients
        },
    }
    with open(args.out, "w") as out:
        json.dump(result, out)
    print(f"clients done in {result['elapsed']} s: {result['requests']} requests", flush=True)


def check(args):
    result = json.load(open(args.result))
    stored = collections.defaultdict(list)  # insert_id -> [(owner, copies)]
    rows = 0
    for line in open(args.rows):
        line = line.rstrip("\n")
        if not line:
            continue
        owner, insert, copies = line.split("|")
        stored[insert].append((owner, int(copies)))
        rows += 1
    owner_of = {}
    acked = set()
    sent = set()
    for install, ids in result["installs"].items():
        for insert in ids["sent"]:
            owner_of[insert] = install
        sent.update(ids["sent"])
        acked.update(ids["acked"])
    missing = [i for i in acked if len(stored.get(i, [])) == 0]
    twice = [i for i in sent if len(stored.get(i, [])) > 1]
    wrong_owner = [i for i in sent for owner, _ in stored.get(i, []) if owner != owner_of[i]]
    unknown = [i for i in stored if i not in sent]
    unacked_stored = sum(1 for i in sent - acked if i in stored)
    with_copies = sum(1 for entries in stored.values() for _, copies in entries if copies > 1)
    final = result["final_pulls"]
    final_ok = final.get("200", 0) + final.get("304", 0)
    non2xx = {k: v for k, v in result["status"].items() if not 200 <= int(k.split()[1]) < 300 and int(k.split()[1]) != 304}

    print(f"clients: {result['clients']} ({result['authenticated']} authenticated, "
          f"{result['hung_clients']} hung), {result['duration']} s of load")
    if args.kill_at is not None:
        print(f"kill: SIGKILL at {args.kill_at:.1f} s, restarted (listening) at {args.restart_at:.1f} s")
    print(f"requests: {result['requests']}; pulls: {result['pulls_200']} x 200, "
          f"{result['pulls_304']} x 304; batches acknowledged: {result['batches_acked']}, "
          f"batches sent again: {result['batch_retries']}")
    print(f"answers by route and status: {result['status']}")
    print(f"non-2xx answers (304 aside): {non2xx or 'none'}")
    print(f"connection errors: {result['connection_errors'] or 'none'}")
    print(f"events: {len(sent)} sent, {len(acked)} acknowledged, {rows} rows stored "
          f"({len(sent - acked)} never acknowledged, {unacked_stored} of them stored anyway); "
          f"{with_copies} rows received more than once (copies > 1)")
    print(f"last pulls: {final} ({final_ok} of {result['clients']} succeeded)")
    failures = []
    if result["authenticated"] != result["clients"]:
        failures.append(f"{result['clients'] - result['authenticated']} clients never authenticated")
    if result["hung_clients"]:
        failures.append(f"{result['hung_clients']} clients still running at the end")
    if missing:
        failures.append(f"{len(missing)} acknowledged events not stored, e.g. {sorted(missing)[:5]}")
    if twice:
        failures.append(f"{len(twice)} events stored more than once, e.g. {sorted(twice)[:5]}")
    if wrong_owner:
        failures.append(f"{len(wrong_owner)} events stored under another install, e.g. {wrong_owner[:5]}")
    if unknown:
        failures.append(f"{len(unknown)} stored events no client sent, e.g. {sorted(unknown)[:5]}")
    if final_ok != result["clients"]:
        failures.append(f"{result['clients'] - final_ok} last pulls failed: {final}")
    if not acked:
        failures.append("no event was acknowledged")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("PASS" if not failures else "FAIL")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    r = commands.add_parser("run")
    r.add_argument("url")
    r.add_argument("--clients", type=int, default=100)
    r.add_argument("--duration", type=float, default=60)
    r.add_argument("--think", type=float, default=0.1, help="longest pause after a batch, seconds")
    r.add_argument("--flush-seconds", type=float, default=10, help="time for the last sends and pulls")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--out", required=True)
    c = commands.add_parser("check")
    c.add_argument("result")
    c.add_argument("rows")
    c.add_argument("--kill-at", type=float)
    c.add_argument("--restart-at", type=float)
    args = parser.parse_args()
    if args.command == "run":
        run(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
