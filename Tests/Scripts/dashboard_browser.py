#!/usr/bin/env python3
"""The operator's dashboard (GET /dashboard) in a real browser, for scripts/dashboard-browser-test.sh.

  dashboard_browser.py SERVER_BINARY [--screenshot PNG]

Starts SERVER_BINARY on a free loopback port in a temporary folder, with a small deck and an
admin token file, and seeds known events through the real API: three installs, reactions to
three cards, a few other events (one named like an HTML element, one sent twice with the same
$insert_id), one invalid record in an otherwise valid batch and one request refused whole.
Then checks, with urllib, who may see the dashboard (401 without the admin token, 200 and its
headers with it, the cookie of POST /dashboard/login) and, in Debian's chromium driven by
Playwright, what it shows: the page asks for nothing but itself, runs no script and logs no
error; every bar's height is its value scaled to the chart's largest (the largest type's total
for the stacked reactions), in the markup and as rendered; the tables say the seeded counts;
the hostile strings are text. Saves a full-page screenshot (.build/dashboard.png by default).
Prints each failure and PASS or FAIL (exit status 1). The whole run is bounded by 60 s, and
the server is stopped (SIGTERM) whatever happens.
"""

import argparse
import ctypes
import datetime
import http.client
import json
import os
import re
import secrets
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

# The checkout: this file is Tests/Scripts/dashboard_browser.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = "/usr/bin/chromium"
DEADLINE_SECONDS = 60
# A string that runs script wherever it lands in markup unescaped: the name of an event.
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
# A card title with markup and a script in it (the deck's text, shown in the top-cards table).
HOSTILE_TITLE = 'Word <b>one</b> & "two" <script>alert(2)</script>'
DECK = [
    {"deck": "t", "types": {"fact": {"label": "Fact"}, "word": {"label": "Word"}}},
    {"id": "f1", "type": "fact", "title": "Fact one", "body": "The first fact."},
    {"id": "f2", "type": "fact", "title": "Fact two", "body": "The second fact."},
    {"id": "f3", "type": "fact", "title": "Fact three", "body": "A fact no one reacts to."},
    {"id": "w1", "type": "word", "title": HOSTILE_TITLE, "body": "A word."},
]
TITLES = {card["id"]: card["title"] for card in DECK[1:]}
LABELS = {"fact": "Fact", "word": "Word"}
INSTALLS = ["dash-a", "dash-b", "dash-c"]
# Each install reacts at most once to a card (the store keeps an install's last reaction to a
# card, so these counts hold whether the dashboard reads the events or the reactions).
REACTIONS = {  # card -> the reaction of each install, in the order of INSTALLS
    "f1": ["CTFO", "CTFO", "CTFO"],
    "f2": ["TFU", "TFU", "TIFB"],
    "w1": ["CTFO", "TFU", "TIFB"],
}
CARD_TYPE = {"f1": "fact", "f2": "fact", "w1": "word"}
REACTION_NAMES = ["CTFO", "TFU", "TIFB"]
BAR_MAX = 120  # the height of a chart's largest bar, in the SVG's units


class Timeout(Exception):
    pass


class Failures:
    """The failed checks, said as they happen and counted at the end."""

    def __init__(self):
        self.items = []

    def check(self, ok, message):
        if not ok:
            self.items.append(message)
            print(f"FAIL: {message}", flush=True)
        return ok


# MARK: - The server


def die_with_parent():
    """In the server's child process: SIGTERM when this script dies, even by SIGKILL (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_server(binary, work):
    """Starts the server on a free port; (process, port, admin token, log path)."""
    deck = os.path.join(work, "deck.jsonl")
    with open(deck, "w") as out:
        out.writelines(json.dumps(line) + "\n" for line in DECK)
    token = secrets.token_urlsafe(24)
    token_file = os.path.join(work, "admin-token")
    with open(token_file, "w") as out:
        out.write(token + "\n")
    os.chmod(token_file, 0o600)
    log_path = os.path.join(work, "server.log")
    with open(log_path, "w") as stderr:
        process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--data", os.path.join(work, "data"),
             "--deck", deck, "--admin-token-file", token_file],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, cwd=work,
            preexec_fn=die_with_parent)
    # Its first line, "listening on 127.0.0.1:PORT", waited for on the pipe (15 s at most); it
    # writes nothing more there. A server that dies first ends the pipe.
    readable, _, _ = select.select([process.stdout], [], [], 15)
    match = re.match(rb"listening on .*:(\d+)\n", process.stdout.readline()) if readable else None
    if match:
        return process, int(match.group(1)), token, log_path
    stop_server(process)
    raise RuntimeError(f"the server did not start; its log ends:\n{tail(log_path)}")


def stop_server(process):
    """SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            print("WARNING: the server still ran 10 s after SIGTERM; killed", flush=True)
            process.kill()
            process.wait()


def tail(path, lines=20):
    try:
        with open(path, errors="replace") as log:
            return "".join(log.readlines()[-lines:])
    except OSError:
        return ""


# MARK: - HTTP


def request(port, method, path, body=None, headers=None):
    """One request on a connection of its own, redirects not followed: (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read()
    except (OSError, http.client.HTTPException) as error:
        raise RuntimeError(f"{method} {path}: {type(error).__name__}: {error}") from error
    finally:
        conn.close()


def auth(port, install):
    status, _, body = request(port, "POST", "/v1/auth", json.dumps({
        "installId": install,
        "device": {"platform": "linux", "app": "dashboard-test", "locale": "C"},
        "user": {},
        "clientTime": int(time.time() * 1000),
    }), {"Content-Type": "application/json"})
    if status != 200:
        raise RuntimeError(f"POST /v1/auth for {install}: {status} {body[:200]!r}")
    return json.loads(body)["token"]


def post_events(port, token, events):
    """POST /v1/events: (status, answer as JSON)."""
    body = events if isinstance(events, (bytes, str)) else json.dumps(events)
    status, _, answer = request(port, "POST", "/v1/events", body, {
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
    })
    try:
        return status, json.loads(answer)
    except ValueError:
        return status, answer


def event(name, install, insert_id, **properties):
    return {"event": name, "properties": {
        "time": int(time.time() * 1000), "distinct_id": install, "$insert_id": insert_id, **properties,
    }}


def seed(port, failures):
    """Posts the known events; returns what the dashboard should then say."""
    tokens = {install: auth(port, install) for install in INSTALLS}
    names = {}  # event name -> events stored

    def post(install, events, want=200, imported=None):
        status, answer = post_events(port, tokens[install], events)
        failures.check(status == want, f"POST /v1/events ({install}): {status}, not {want}: {answer}")
        if imported is not None and isinstance(answer, dict):
            failures.check(answer.get("num_records_imported") == imported,
                           f"POST /v1/events ({install}): {answer.get('num_records_imported')} "
                           f"records imported, not {imported}: {answer}")

    # The reactions, one batch an install, with card_id and card_type as the app sends them.
    for i, install in enumerate(INSTALLS):
        batch = [event(REACTIONS[card][i], install, f"{install}-r-{card}",
                       card_id=card, card_type=CARD_TYPE[card]) for card in REACTIONS]
        post(install, batch)
        for e in batch:
            names[e["event"]] = names.get(e["event"], 0) + 1
    # An app_open from each; the first install's batch sent again (a retry whose answer was
    # lost): the same $insert_id, stored once.
    for install in INSTALLS:
        batch = [event("app_open", install, f"{install}-open")]
        post(install, batch)
        if install == INSTALLS[0]:
            post(install, batch)
        names["app_open"] = names.get("app_open", 0) + 1
    # The hostile name, which the server takes (an event name may hold anything but controls).
    post(INSTALLS[0], [event(HOSTILE_NAME, INSTALLS[0], f"{INSTALLS[0]}-hostile", card_id="f3")])
    names[HOSTILE_NAME] = 1
    # A valid Focus and an invalid record (no event name) in one batch: 400, the valid one kept,
    # one rejected record for the ctfo sink.
    invalid = {"properties": {"time": int(time.time() * 1000), "distinct_id": INSTALLS[1],
                              "$insert_id": f"{INSTALLS[1]}-invalid"}}
    post(INSTALLS[1], [event("Focus", INSTALLS[1], f"{INSTALLS[1]}-focus", card_id="f1",
                             card_type="fact", ms=1200), invalid], want=400, imported=1)
    names["Focus"] = 1
    # A request refused whole (a truncated JSON array): a dead letter, no record stored.
    post(INSTALLS[2], '[{"event":', want=400)

    reactions = {}  # (type, reaction) -> count
    for card, by_install in REACTIONS.items():
        for reaction in by_install:
            key = (CARD_TYPE[card], reaction)
            reactions[key] = reactions.get(key, 0) + 1
    return {"names": names, "stored": sum(names.values()), "reactions": reactions}


def check_access(port, token, failures):
    """Who may see the dashboard, and the headers of its page, without a browser."""
    status, _, _ = request(port, "GET", "/dashboard")
    failures.check(status == 401, f"GET /dashboard without auth: {status}, not 401")
    status, _, _ = request(port, "GET", "/dashboard", headers={"Authorization": "Bearer wrong-" + token})
    failures.check(status == 401, f"GET /dashboard with a wrong bearer token: {status}, not 401")
    status, _, _ = request(port, "GET", "/dashboard", headers={"Cookie": "ctfo_admin=forged"})
    failures.check(status == 401, f"GET /dashboard with a forged ctfo_admin cookie: {status}, not 401")
    status, headers, body = request(port, "GET", "/dashboard", headers={"Authorization": f"Bearer {token}"})
    if failures.check(status == 200, f"GET /dashboard with the admin token: {status}, not 200"):
        csp = headers.get("Content-Security-Policy", "")
        failures.check(csp.startswith("default-src 'none'"),
                       f"Content-Security-Policy does not start with default-src 'none': {csp!r}")
        kind = headers.get("Content-Type", "")
        failures.check(kind.lower().replace(" ", "") == "text/html;charset=utf-8",
                       f"Content-Type is {kind!r}, not text/html; charset=utf-8")
        failures.check(b"<script" not in body.lower(), "the page holds a <script")
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, headers, _ = request(port, "POST", "/dashboard/login",
                                 urllib.parse.urlencode({"token": "wrong-" + token}), form)
    failures.check(status == 401, f"POST /dashboard/login with a wrong token: {status}, not 401")
    failures.check("ctfo_admin=" not in (headers.get("Set-Cookie") or ""),
                   "POST /dashboard/login with a wrong token sets the ctfo_admin cookie")
    status, headers, _ = request(port, "POST", "/dashboard/login", urllib.parse.urlencode({"token": token}), form)
    failures.check(status == 303, f"POST /dashboard/login with the admin token: {status}, not 303")
    location = headers.get("Location") or ""
    failures.check(urllib.parse.urlsplit(location).path == "/dashboard",
                   f"POST /dashboard/login redirects to {location!r}, not /dashboard")
    cookie = next((c.split(";")[0] for c in headers.get_all("Set-Cookie") or []
                   if c.startswith("ctfo_admin=")), None)
    if failures.check(cookie, "POST /dashboard/login sets no ctfo_admin cookie"):
        status, _, _ = request(port, "GET", "/dashboard", headers={"Cookie": cookie})
        failures.check(status == 200, f"GET /dashboard with the login's cookie: {status}, not 200")


# MARK: - The browser

# Every Content-Security-Policy violation, kept by a script Playwright adds to each page
# (outside the page's CSP): a blocked inline style logs a console error too, this names it.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));
"""

# What the page shows, read in one evaluation: each chart's bars, each table's rows.
READ_PAGE = """() => {
  const bars = id => {
    const rects = [...document.querySelectorAll(`figure#${id} rect.bar`)];
    const svgs = new Set(rects.map(r => r.closest('svg')));
    return {
      sharedSvg: svgs.size === 1 && !svgs.has(null),
      bars: rects.map(r => ({
        value: r.getAttribute('data-value'), height: r.getAttribute('height'),
        label: r.getAttribute('data-label'), type: r.getAttribute('data-type'),
        reaction: r.getAttribute('data-reaction')})),
    };
  };
  // A table's rows (those with a <th scope="row">), each with its header cell, its data cells
  // and all its cells in order; and the column headers (a row of <th> alone, none scope="row").
  const rows = id => {
    const table = document.querySelector(`table#${id}`);
    if (!table) return null;
    const text = cell => cell.textContent.trim();
    const trs = [...table.querySelectorAll('tr')];
    const head = trs.find(tr => tr.cells.length && [...tr.cells].every(
      c => c.tagName === 'TH' && c.getAttribute('scope') !== 'row'));
    return {
      head: head ? [...head.cells].map(text) : [],
      rows: trs.filter(tr => tr.querySelector('th[scope=row]')).map(tr => ({
        th: text(tr.querySelector('th[scope=row]')),
        tds: [...tr.querySelectorAll('td')].map(text),
        cells: [...tr.cells].map(text)})),
    };
  };
  const tables = {};
  for (const id of ['events-per-hour-table', 'reactions-by-type-table', 'top-cards-table',
                    'active-installs-table', 'rejected-table', 'event-names-table']) tables[id] = rows(id);
  return {
    hours: bars('events-per-hour'), reactions: bars('reactions-by-type'), tables,
    scripts: document.querySelectorAll('script').length,
    imgs: document.querySelectorAll('img').length,
    embedded: document.querySelectorAll('iframe, object, embed, link[rel~=stylesheet]').length,
    handlers: [...document.querySelectorAll('*')].flatMap(el =>
      [...el.attributes].filter(a => a.name.startsWith('on')).map(a => `${el.tagName} ${a.name}`)),
    text: document.body ? document.body.innerText : '',
    cspViolations: window.__cspViolations || [],
  };
}"""


def number(text):
    """The number in a cell ("3", "1,204", "100%", "33.3 %"), or None."""
    match = re.search(r"-?\d[\d,]*(\.\d+)?", text or "")
    return float(match.group(0).replace(",", "")) if match else None


def check_height(failures, chart, bar, scale_max):
    """A bar's height attribute: value / max * 120, written with one decimal (0 when max is 0)."""
    value = number(bar["value"])
    if not failures.check(value is not None and re.fullmatch(r"\d+", bar["value"] or ""),
                          f"{chart}: a bar's data-value is {bar['value']!r}"):
        return
    want = value / scale_max * BAR_MAX if scale_max else 0.0
    height = bar["height"] or ""
    failures.check(re.fullmatch(r"\d+\.\d", height) and abs(float(height) - want) <= 0.05 + 1e-9,
                   f"{chart}: bar {bar.get('label') or (bar['type'], bar['reaction'])} of value "
                   f"{bar['value']} has height {height!r}, not {want:.1f}")


def check_rendered(failures, chart, locator, values):
    """Rendered bar heights in proportion to the values: within 1 px of the largest bar's scale."""
    boxes = [locator.nth(i).bounding_box() for i in range(locator.count())]
    heights = [box["height"] if box else 0.0 for box in boxes]
    largest = max(range(len(values)), key=lambda i: values[i], default=None)
    if largest is None or values[largest] == 0:
        return
    tallest = heights[largest]
    if not failures.check(tallest >= 20, f"{chart}: the largest bar is {tallest:.1f} px tall as rendered"):
        return
    for value, height in zip(values, heights):
        want = tallest * value / values[largest]
        failures.check(abs(height - want) <= 1,
                       f"{chart}: a bar of value {value} is {height:.1f} px tall as rendered, not "
                       f"{want:.1f} ({values[largest]} is {tallest:.1f} px)")


def watch(page, base):
    """Records what the page asks for, logs as errors, throws, and any dialog (dismissed)."""
    seen = {"requests": [], "errors": [], "dialogs": [], "favicon": False}
    page.on("request", lambda r: seen["requests"].append(f"{r.method} {r.url}"))

    def console(message):
        if message.type != "error":
            return
        # Chromium asks for /favicon.ico by itself, now and then (headless or not), for a page
        # that names no icon: not the page's request (Playwright does not report it as one), and
        # its 404 is not the page's error. The page's own requests are all in `requests`.
        if message.location.get("url") == f"{base}/favicon.ico":
            seen["favicon"] = True
            return
        where = message.location.get("url") or ""
        seen["errors"].append(f"console: {message.text}" + (f" ({where})" if where else ""))
    page.on("console", console)
    page.on("pageerror", lambda e: seen["errors"].append(f"page error: {e}"))

    def dialog(d):
        seen["dialogs"].append(f"{d.type}: {d.message}")
        d.dismiss()
    page.on("dialog", dialog)
    return seen


def check_watched(failures, how, seen, base):
    own = f"{base}/dashboard"
    others = [r for r in seen["requests"] if r != f"GET {own}"]
    failures.check(not others, f"{how}: the page made requests other than GET {own}: {others}")
    failures.check(seen["requests"], f"{how}: no request for the page was seen")
    failures.check(not seen["errors"], f"{how}: errors in the page: {seen['errors']}")
    failures.check(not seen["dialogs"], f"{how}: the page opened dialogs (script ran): {seen['dialogs']}")
    if seen["favicon"]:
        print(f"note ({how}): chromium asked for /favicon.ico by itself (not the page's request)", flush=True)


def check_page(failures, page, response, expected, seeded_hour):
    """The whole page as the bearer-token session sees it."""
    failures.check(response.headers.get("content-security-policy", "").startswith("default-src 'none'"),
                   "the browser's answer has no Content-Security-Policy starting default-src 'none'")
    got = page.evaluate(READ_PAGE)
    failures.check(got["scripts"] == 0, f"{got['scripts']} script elements in the page")
    failures.check(got["imgs"] == 0, f"{got['imgs']} img elements in the page (an unescaped string?)")
    failures.check(got["embedded"] == 0, f"{got['embedded']} iframe, object, embed or stylesheet links")
    failures.check(not got["handlers"], f"event handler attributes in the page: {got['handlers'][:5]}")
    failures.check(not got["cspViolations"], f"Content-Security-Policy violations: {got['cspViolations']}")
    failures.check(HOSTILE_NAME in got["text"], f"the event name {HOSTILE_NAME!r} is not shown as text")
    failures.check(HOSTILE_TITLE in got["text"], f"the card title {HOSTILE_TITLE!r} is not shown as text")

    # Events per hour: 48 bars, oldest first, the last the current hour (or, when the hour
    # turned during the test, the events are spread over the last two).
    hours = got["hours"]["bars"]
    failures.check(got["hours"]["sharedSvg"], "#events-per-hour: the bars do not share one svg")
    if failures.check(len(hours) == 48, f"#events-per-hour: {len(hours)} bars, not 48"):
        now = datetime.datetime.now(datetime.timezone.utc).replace(minute=0, second=0, microsecond=0)
        labels = [(now - datetime.timedelta(hours=47 - i)).strftime("%Y-%m-%d %H:00") for i in range(48)]
        # The page may end an hour earlier than now only when the hour turned since the seeding.
        earlier = [(now - datetime.timedelta(hours=48 - i)).strftime("%Y-%m-%d %H:00") for i in range(48)]
        shown = [b["label"] for b in hours]
        if shown != labels:
            failures.check(shown == earlier and seeded_hour != labels[-1],
                           f"#events-per-hour: labels {hours[0]['label']!r} .. {hours[-1]['label']!r}, "
                           f"not {labels[0]!r} .. {labels[-1]!r} (UTC hours, oldest first)")
        values = [int(number(b["value"]) or 0) for b in hours]
        stored = expected["stored"]
        # All the events were received in the hour the seeding began, unless it turned meanwhile.
        last = values[-1] if hours[-1]["label"] == seeded_hour else values[-1] + values[-2]
        failures.check(last == stored and sum(values) == stored,
                       f"#events-per-hour: the last bars say {values[-2:]} (all {sum(values)}), not the "
                       f"{stored} distinct events stored (seeding began in the hour {seeded_hour})")
        for bar in hours:
            check_height(failures, "#events-per-hour", bar, max(values))
        table = table_rows(got, "events-per-hour-table")
        failures.check([(r["th"], r["tds"][:1]) for r in table] == [(b["label"], [b["value"]]) for b in hours],
                       "#events-per-hour-table does not list each hour's label and count as the bars do")
        check_rendered(failures, "#events-per-hour", page.locator("figure#events-per-hour rect.bar"), values)

    # Reactions by type: stacked, scaled to the largest type's total.
    bars = got["reactions"]["bars"]
    failures.check(got["reactions"]["sharedSvg"], "#reactions-by-type: the bars do not share one svg")
    want = expected["reactions"]
    have = {(b["type"], b["reaction"]): int(number(b["value"]) or 0) for b in bars}
    shown = {k: v for k, v in have.items() if v}
    failures.check(shown == want and len(have) == len(bars),
                   f"#reactions-by-type: bars {sorted(have.items())}, not {sorted(want.items())}")
    totals = {}
    for (kind, _), n in have.items():
        totals[kind] = totals.get(kind, 0) + n
    for bar in bars:
        check_height(failures, "#reactions-by-type", bar, max(totals.values(), default=0))
    check_rendered(failures, "#reactions-by-type", page.locator("figure#reactions-by-type rect.bar"),
                   [int(number(b["value"]) or 0) for b in bars])
    rows = {r["th"]: r["tds"] for r in table_rows(got, "reactions-by-type-table")}
    for kind in sorted({k for k, _ in want}):
        row = rows.get(kind, rows.get(LABELS[kind]))
        counts = [str(want.get((kind, r), 0)) for r in REACTION_NAMES]
        failures.check(row is not None and row[:3] == counts,
                       f"#reactions-by-type-table: the row of {kind} is {row}, not CTFO, TFU, TIFB {counts}")

    # Top cards: those with 3 reactions or more, by CTFO rate: f1 (3 of 3), w1 (1 of 3), f2 (0).
    top = table_rows(got, "top-cards-table")
    want_top = [("f1", 3, 100.0), ("w1", 1, 100 / 3), ("f2", 0, 0.0)]
    failures.check([r["th"] for r in top] == [c for c, _, _ in want_top],
                   f"#top-cards-table lists {[r['th'] for r in top]}, not {[c for c, _, _ in want_top]}")
    rows = {r["th"]: r["tds"] for r in top}
    for card, ctfo, rate in want_top:
        tds = rows.get(card, [])
        shown = number(tds[3]) if len(tds) >= 4 else None
        ok = (shown is not None and tds[0] == TITLES[card] and number(tds[1]) == ctfo and number(tds[2]) == 3
              and tds[3].endswith("%") and abs(shown - rate) < 0.5)
        failures.check(ok, f"#top-cards-table: the row of {card} is {tds}, not "
                           f"[{TITLES[card]!r}, {ctfo}, 3, {rate:.0f}%]")

    # Active installs: the three posted events today.
    rows = {r["th"]: r["tds"] for r in table_rows(got, "active-installs-table")}
    for window in ["1 day", "7 days", "30 days"]:
        failures.check(rows.get(window, [None])[:1] == [str(len(INSTALLS))],
                       f"#active-installs-table: {window!r} says {rows.get(window)}, not {len(INSTALLS)}")

    # Rejected: the one invalid record (sink ctfo), the one request refused whole. The dead
    # letters are a row of their own or a column beside each sink's rejected records.
    table = got["tables"]["rejected-table"] or {"head": [], "rows": []}
    rows = {r["th"].lower(): r for r in table["rows"]}
    ctfo = rows.get("ctfo")
    rejected = column(table, r"rejected", ctfo, default=1)
    failures.check(number(rejected) == 1,
                   f"#rejected-table: ctfo says {ctfo and ctfo['cells']}, not 1 rejected record")
    if column_index(table, r"dead") is not None:
        dead = sum(number(column(table, r"dead", row)) or 0 for row in table["rows"])
        where = f"the dead letters column says {dead:g}"
    else:
        row = rows.get("dead letters")
        dead = number(row["tds"][0]) if row and row["tds"] else None
        where = f"dead letters says {row and row['cells']}"
    failures.check(dead == 1, f"#rejected-table: {where}, not 1 (a request refused whole)")

    # Event names by count, duplicates counted once, the hostile name as text: the name is the
    # row's header or under a "Name" column, its count under "Events" (or "Count") or last.
    table = got["tables"]["event-names-table"] or {"head": [], "rows": []}
    names = {}
    for row in table["rows"]:
        name = column(table, r"name", row, default=None) if column_index(table, r"name") is not None else row["th"]
        count = column(table, r"^(events|count)", row, default=len(row["cells"]) - 1)
        names[name] = names.get(name, 0) + int(number(count) or 0)
    failures.check(names == expected["names"],
                   f"#event-names-table: {sorted(names.items())}, not {sorted(expected['names'].items())}")
    counts = [int(number(column(table, r"^(events|count)", r, default=len(r["cells"]) - 1)) or 0)
              for r in table["rows"]]
    failures.check(counts == sorted(counts, reverse=True), f"#event-names-table is not by count: {counts}")


def table_rows(got, table_id):
    return (got["tables"][table_id] or {"rows": []})["rows"]


def column_index(table, pattern):
    """The index among a row's cells of the column whose header matches `pattern`, or None."""
    for i, header in enumerate(table["head"]):
        if re.search(pattern, header, re.IGNORECASE):
            return i
    return None


def column(table, pattern, row, default=1):
    """A row's cell under the column whose header matches `pattern`; else its cell `default`
    (1: the first after the row's header cell)."""
    if row is None:
        return None
    i = column_index(table, pattern)
    i = default if i is None else i
    return row["cells"][i] if i is not None and 0 <= i < len(row["cells"]) else None


def browse(base, token, expected, seeded_hour, screenshot, failures):
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=args, timeout=20_000)
        try:
            # The bearer token on every request the context makes.
            context = browser.new_context(extra_http_headers={"Authorization": f"Bearer {token}"},
                                          viewport={"width": 1280, "height": 900})
            context.set_default_timeout(10_000)
            context.add_init_script(WATCH_CSP)
            page = context.new_page()
            seen = watch(page, base)
            response = page.goto(f"{base}/dashboard", wait_until="load")
            if failures.check(response and response.status == 200,
                              f"the browser with the bearer token: {response and response.status}, not 200"):
                page.wait_for_timeout(300)  # late requests and errors, if any
                check_page(failures, page, response, expected, seeded_hour)
                os.makedirs(os.path.dirname(screenshot), exist_ok=True)
                page.screenshot(path=screenshot, full_page=True)
                print(f"screenshot: {os.path.relpath(screenshot, ROOT)}", flush=True)
            check_watched(failures, "bearer token", seen, base)
            context.close()

            # The login: POST /dashboard/login from the context, whose cookie jar the page shares.
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(10_000)
            context.add_init_script(WATCH_CSP)
            wrong = context.request.post(f"{base}/dashboard/login", form={"token": "wrong-" + token},
                                         max_redirects=0)
            failures.check(wrong.status == 401, f"the browser's login with a wrong token: {wrong.status}, not 401")
            failures.check(not any(c["name"] == "ctfo_admin" for c in context.cookies()),
                           "a login with a wrong token left a ctfo_admin cookie")
            login = context.request.post(f"{base}/dashboard/login", form={"token": token}, max_redirects=0)
            failures.check(login.status == 303, f"the browser's login: {login.status}, not 303")
            cookies = [c for c in context.cookies() if c["name"] == "ctfo_admin"]
            if failures.check(cookies, "the browser's login left no ctfo_admin cookie in the context"):
                if not (cookies[0]["httpOnly"] and cookies[0]["sameSite"] in ("Strict", "Lax")):
                    print(f"note: the ctfo_admin cookie is httpOnly={cookies[0]['httpOnly']} "
                          f"sameSite={cookies[0]['sameSite']}", flush=True)
            page = context.new_page()
            seen = watch(page, base)
            response = page.goto(f"{base}/dashboard", wait_until="load")
            if failures.check(response and response.status == 200,
                              f"the browser with the login's cookie: {response and response.status}, not 200"):
                page.wait_for_timeout(300)
                got = page.evaluate(READ_PAGE)
                failures.check(len(got["hours"]["bars"]) == 48 and got["reactions"]["bars"],
                               "the page seen with the login's cookie has not the charts")
                failures.check(not got["cspViolations"], f"CSP violations (cookie): {got['cspViolations']}")
            check_watched(failures, "login cookie", seen, base)
            context.close()
        finally:
            browser.close()


# MARK: - Main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("server", help="the ctfo-server binary")
    parser.add_argument("--screenshot", default=os.path.join(ROOT, ".build", "dashboard.png"))
    args = parser.parse_args()

    def expire(signum, _frame):
        raise Timeout(f"over {DEADLINE_SECONDS} s" if signum == signal.SIGALRM else f"signal {signum}")
    # The deadline, and SIGTERM or SIGINT, end the run through the `finally` that stops the server.
    signal.signal(signal.SIGALRM, expire)
    signal.signal(signal.SIGTERM, expire)
    signal.signal(signal.SIGINT, expire)
    signal.alarm(DEADLINE_SECONDS)

    failures = Failures()
    process = None
    log = None
    with tempfile.TemporaryDirectory(prefix="ctfo-dashboard-") as work:
        try:
            print("== dashboard in chromium: ctfo-server with a seeded store", flush=True)
            process, port, token, log = start_server(os.path.abspath(args.server), work)
            base = f"http://127.0.0.1:{port}"
            print(f"server on port {port}", flush=True)
            seeded_hour = time.strftime("%Y-%m-%d %H:00", time.gmtime())
            expected = seed(port, failures)
            print(f"seeded {expected['stored']} events from {len(INSTALLS)} installs", flush=True)
            check_access(port, token, failures)
            browse(base, token, expected, seeded_hour, os.path.abspath(args.screenshot), failures)
        except Timeout as error:
            failures.check(False, f"stopped: {error}")
        except Exception as error:  # a step that could not go on: said, then the cleanup
            failures.check(False, f"{type(error).__name__}: {error}")
        finally:
            signal.alarm(0)
            if process is not None:
                stop_server(process)
            if failures.items and log:
                print(f"--- server log (last lines)\n{tail(log)}", end="", flush=True)
    print("PASS" if not failures.items else f"FAIL ({len(failures.items)} checks)", flush=True)
    return 1 if failures.items else 0


if __name__ == "__main__":
    sys.exit(main())
