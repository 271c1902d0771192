#!/usr/bin/env python3
"""Measures the interactive ctfo through a pseudo-terminal at 80x24.

    python3 bench/pty_bench.py .build/release/ctfo [--deck FILE] [--swipes 200] [--idle 10]

Prints one line per figure:
  launch to first card  time from spawn until a card's title is on the screen (target <= 15 ms
                        with an existing home); --launches N gives the median of N
  swipe key-to-first-byte  Right arrow sent -> the first byte of the answer
  swipe key-to-frame    Right arrow sent -> the first frame after it fully written (target
                        median <= 1 ms); the end of a frame is a pause of --gap ms in the output
  swipe key-to-settled  Right arrow sent -> the last byte before the output stays quiet (the
                        slide-out's frames included)
  idle CPU              utime + stime ticks from /proc/PID/stat over --idle seconds (target 0)

--stream RATE pipes RATE card updates a second into `ctfo --deck -` and prints key-to-frame
during the stream, the app's CPU, its memory before and after, and the rate reached.

--no-motion-swipes N --bare PROGRAM: N swipes of `ctfo --no-motion` on a deck of its own, each
timed from the key to the next card's text (title and body) on screen, told by a small
terminal model fed the output as it was read, not by the first byte; beside them, in turns of
100, N keys to PROGRAM (bench/bare-repaint.c: a bare ncurses full repaint), timed to its page's
text the same way. Also counts the swipes that drew the "Loading…" placeholder, with the ready
queue full (each swipe waits --swipe-pause ms after the last frame; goal 0). --also BINARY
(repeatable) swipes another build as many times in the same turns, each on a home of its own:
a build before a change against the one after, the machine's drift falling on both alike.

Uses CTFO_HOME from the environment when set, otherwise a temporary directory. Python 3
standard library only.
"""

import argparse
import fcntl
import json
import os
import random
import shutil
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

RIGHT = b"\x1bOC"  # what a terminal in keypad mode (smkx) sends for the Right arrow
ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78]|O.)")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the ctfo binary")
    parser.add_argument("--deck", help="a deck file, passed as --deck FILE")
    parser.add_argument("--swipes", type=int, default=200)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idling")
    parser.add_argument("--gap", type=float, default=4.0, help="ms of silence ending a frame")
    parser.add_argument("--settle", type=float, default=100.0, help="ms of silence after a swipe")
    parser.add_argument("--marker", action="append", help="text that shows a card is drawn")
    parser.add_argument("--launches", type=int, default=1,
                        help="launches measured (the median is printed when more than one)")
    parser.add_argument("--early-swipes", type=int, default=0,
                        help="instead of the usual figures: swipes sent as soon as the first card"
                        " shows, in each of --launches launches (each from a copy of"
                        " --template-home), for the key-to-frame latency while the launch's"
                        " background work (a pull) runs")
    parser.add_argument("--swipe-pause", type=float, default=0.0,
                        help="ms between two early swipes (0: each as soon as the last frame is"
                        " drawn, as fast as a key held down; 250: a quick reader), so that the"
                        " background work runs in the pauses")
    parser.add_argument("--template-home", action="append",
                        help="a CTFO_HOME copied afresh for each launch; given more than once,"
                        " the launches take the homes in turn and each home gets its own"
                        " summary, with the difference of its p99 from each home before it")
    parser.add_argument("--stream", type=int, default=0,
                        help="card updates a second piped into `ctfo --deck -` while swiping (a"
                        " pool of --stream-cards ids sent again and again with new bodies);"
                        " prints the rate reached and the app's memory before and after")
    parser.add_argument("--stream-cards", type=int, default=2000)
    parser.add_argument("--stream-seconds", type=float, default=10.0,
                        help="how long the stream runs after the first second")
    parser.add_argument("--no-motion-swipes", type=int, default=0,
                        help="instead of the usual figures: swipes of `ctfo --no-motion` timed to"
                        " the next card's text, beside as many keys to --bare")
    parser.add_argument("--bare", help="the bare ncurses full repaint (bench/bare-repaint.c)")
    parser.add_argument("--also", action="append", default=[],
                        help="with --no-motion-swipes: another ctfo binary (a build before a"
                        " change, say), swiped as many times in the same turns")
    return parser.parse_args()


# Writes `rate` JSON Lines cards a second to stdout, in 100 batches a second, cycling over
# `cards` ids with a new body each time: the first pass adds them, the others update them.
STREAM = r"""
import os, signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
rate, cards = int(sys.argv[1]), int(sys.argv[2])
if rate == 0:  # the same pipe, kept open and quiet: the baseline
    signal.sigwait([signal.SIGTERM])
    sys.stderr.write("0 1\n")
    sys.exit(0)
batch = max(1, rate // 100)
n = 0
start = time.perf_counter()
try:
    while True:
        lines = []
        for _ in range(batch):
            i = n % cards
            lines.append('{"id":"live-%d","type":"stream","title":"Live %d",'
                          '"body":"Update %d of a streamed card, with a few words more."}\n'
                          % (i, i, n))
            n += 1
        os.write(1, "".join(lines).encode())
        ahead = start + n / rate - time.perf_counter()
        if ahead > 0:
            time.sleep(ahead)
except (BrokenPipeError, KeyboardInterrupt):
    pass
sys.stderr.write("%d %f\n" % (n, time.perf_counter() - start))
"""


class Screen:
    """The text a terminal shows, from what ncurses writes for TERM=xterm-256color: cursor
    moves, erases, inserts and deletes, scrolling regions, repeats and auto-margins; colours
    and modes are ignored. Enough to tell when a text is on screen."""

    TOKENS = re.compile(
        r"(\x1b\[[0-?]*[ -/]*[@-~])|(\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))|(\x1b[()*+#%].)"
        r"|(\x1b[^\[\]()*+#%])|([\x00-\x1a\x1c-\x1f\x7f])|([^\x00-\x1f\x7f]+)")
    # An escape sequence cut at the end of a read waits for the next.
    PARTIAL = re.compile(r"\x1b(\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[()*+#%])?$")

    def __init__(self, columns=80, lines=24):
        self.columns, self.lines = columns, lines
        self.rows = [[" "] * columns for _ in range(lines)]
        self.x = self.y = 0
        self.top, self.bottom = 0, lines - 1
        self.wrap = False
        self.saved = (0, 0)
        self.last = " "
        self.pending = ""
        self.decoder = __import__("codecs").getincrementaldecoder("utf-8")("replace")

    def text(self):
        return ["".join(row) for row in self.rows]

    def shows(self, *texts):
        rows = self.text()
        return all(any(t in row for row in rows) for t in texts)

    def feed(self, data):
        text = self.pending + self.decoder.decode(data)
        cut = self.PARTIAL.search(text)
        self.pending, text = (text[cut.start():], text[:cut.start()]) if cut else ("", text)
        for match in self.TOKENS.finditer(text):
            csi, _, _, esc, control, printable = match.groups()
            if printable:
                self.put(printable)
            elif csi:
                self.csi(csi)
            elif control:
                self.control(control)
            elif esc:
                self.escape(esc[1])

    def put(self, text):
        for char in text:
            if self.wrap:
                self.x, self.wrap = 0, False
                self.index()
            self.rows[self.y][self.x] = char
            self.last = char
            if self.x == self.columns - 1:
                self.wrap = True
            else:
                self.x += 1

    def index(self):
        if self.y == self.bottom:
            self.scroll(1)
        elif self.y < self.lines - 1:
            self.y += 1

    def scroll(self, n):
        """Up by n lines inside the region (down when n < 0)."""
        region = self.rows[self.top:self.bottom + 1]
        blank = [[" "] * self.columns for _ in range(min(abs(n), len(region)))]
        region = region[n:] + blank if n > 0 else blank + region[:n]
        self.rows[self.top:self.bottom + 1] = region[:self.bottom + 1 - self.top]

    def control(self, char):
        if char == "\r":
            self.x, self.wrap = 0, False
        elif char == "\n":
            self.wrap = False
            self.index()
        elif char == "\b":
            self.x, self.wrap = max(0, self.x - 1), False
        elif char == "\t":
            self.x = min(self.columns - 1, (self.x // 8 + 1) * 8)

    def escape(self, char):
        if char == "7":
            self.saved = (self.x, self.y)
        elif char == "8":
            (self.x, self.y), self.wrap = self.saved, False
        elif char == "D":
            self.index()
        elif char == "E":
            self.x = 0
            self.index()
        elif char == "M":
            if self.y == self.top:
                self.scroll(-1)
            elif self.y > 0:
                self.y -= 1
        elif char == "c":
            self.__init__(self.columns, self.lines)

    def csi(self, sequence):
        final, body = sequence[-1], sequence[2:-1]
        if body.startswith("?") or body.startswith(">") or final in "mhlnpqt":
            return
        numbers = [int(p) if p.isdigit() else 0 for p in body.split(";")] if body else []
        n = numbers[0] if numbers and numbers[0] else 1
        erase = numbers[0] if numbers else 0
        row = self.rows[self.y]
        self.wrap = False
        if final in "Hf":
            self.y = min(self.lines, max(1, numbers[0] if numbers and numbers[0] else 1)) - 1
            column = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            self.x = min(self.columns, column) - 1
        elif final == "A":
            self.y = max(0, self.y - n)
        elif final in "Be":
            self.y = min(self.lines - 1, self.y + n)
        elif final in "Ca":
            self.x = min(self.columns - 1, self.x + n)
        elif final == "D":
            self.x = max(0, self.x - n)
        elif final in "G`":
            self.x = min(self.columns, n) - 1
        elif final == "d":
            self.y = min(self.lines, n) - 1
        elif final == "K":
            start, end = {0: (self.x, self.columns), 1: (0, self.x + 1)}.get(erase, (0, self.columns))
            row[start:end] = [" "] * (end - start)
        elif final == "J":
            if erase == 0:
                row[self.x:] = [" "] * (self.columns - self.x)
                lines = range(self.y + 1, self.lines)
            elif erase == 1:
                row[:self.x + 1] = [" "] * (self.x + 1)
                lines = range(0, self.y)
            else:
                lines = range(self.lines)
            for y in lines:
                self.rows[y] = [" "] * self.columns
        elif final == "X":
            end = min(self.columns, self.x + n)
            row[self.x:end] = [" "] * (end - self.x)
        elif final == "@":
            row[self.x:self.x] = [" "] * n
            del row[self.columns:]
        elif final == "P":
            del row[self.x:self.x + n]
            row.extend([" "] * (self.columns - len(row)))
        elif final in "LM" and self.top <= self.y <= self.bottom:
            top = self.top
            self.top = self.y
            self.scroll(-n if final == "L" else n)
            self.top = top
            self.x = 0
        elif final == "S":
            self.scroll(n)
        elif final == "T":
            self.scroll(-n)
        elif final == "b":
            self.put(self.last * n)
        elif final == "r":
            self.top = (numbers[0] if numbers and numbers[0] else 1) - 1
            self.bottom = (numbers[1] if len(numbers) > 1 and numbers[1] else self.lines) - 1
            self.x = self.y = 0
        elif final == "s":
            self.saved = (self.x, self.y)
        elif final == "u":
            self.x, self.y = self.saved


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def card_titles(deck):
    """The titles of the cards of a deck file (JSON lines), the launch markers."""
    titles = []
    with open(deck, encoding="utf-8") as lines:
        for line in lines:
            card = json.loads(line) if line.strip() else {}
            if "id" in card and card.get("title"):
                titles.append(card["title"][:20].encode())
    return titles


def bundled_titles(binary):
    """Titles of the bundled decks, found beside the source tree the binary was built in."""
    for root in (os.path.dirname(os.path.abspath(binary)), os.getcwd()):
        while root != "/":
            decks = os.path.join(root, "Resources", "decks")
            if os.path.isdir(decks):
                return [t for f in sorted(os.listdir(decks)) if f.endswith(".jsonl")
                        for t in card_titles(os.path.join(decks, f))]
            root = os.path.dirname(root)
    return []


class Terminal:
    """A child process on the master side of a pseudo-terminal, with its output as plain text."""

    def __init__(self, argv, env, columns=80, lines=24, stdin=None):
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
            if stdin is not None:
                os.dup2(stdin, 0)  # cards from the pipe; the keys come from /dev/tty
            os.execve(argv[0], argv, env)
        self.text = b""

    def read(self, timeout):
        """Reads what is there within timeout seconds; returns the bytes, or b"" when none."""
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0))
        if not ready:
            return b""
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            raise EOFError("the app closed the terminal") from None
        if not data:
            raise EOFError("the app closed the terminal")
        self.text = (self.text + ESCAPES.sub(b"", data))[-65536:]
        return data

    def wait_for(self, markers, timeout=10.0):
        """Seconds from spawn until one of the markers is on screen."""
        deadline = time.perf_counter() + timeout
        while not any(m in self.text for m in markers):
            if time.perf_counter() > deadline:
                raise TimeoutError("no card appeared; last output: %r" % self.text[-300:])
            self.read(deadline - time.perf_counter())
        return time.perf_counter() - self.started

    def quiet(self, milliseconds):
        """Reads until the output pauses for milliseconds; returns the time of the last byte."""
        last = time.perf_counter()
        while self.read(milliseconds / 1000):
            last = time.perf_counter()
        return last

    def swipe(self, gap, settle):
        """Sends Right; returns (key-to-first-byte, key-to-frame, key-to-settled) in seconds."""
        sent = time.perf_counter()
        os.write(self.fd, RIGHT)
        if not self.read(2.0):
            raise TimeoutError("no frame within 2 s of a swipe")
        first = time.perf_counter()
        frame = max(first, self.quiet(gap))
        settled = max(frame, self.quiet(settle))
        return first - sent, frame - sent, settled - sent

    def cpu_ticks(self):
        with open("/proc/%d/stat" % self.pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)

    def drain(self, seconds):
        """Sends nothing for `seconds`, reading what the app writes meanwhile."""
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            self.read(deadline - time.perf_counter())

    def idle_ticks(self, seconds):
        """CPU ticks used while nothing is sent, draining any output meanwhile."""
        before = self.cpu_ticks()
        self.drain(seconds)
        return self.cpu_ticks() - before

    def quit(self):
        """Sends q and waits for the exit; SIGTERM after 5 s. Returns the wait status."""
        os.write(self.fd, b"q")
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return status
            try:
                self.read(0.05)
            except EOFError:
                pass
        os.kill(self.pid, signal.SIGTERM)
        return os.waitpid(self.pid, 0)[1]


def milliseconds(seconds):
    return "%.2f ms" % (seconds * 1000)


def percentile(samples, fraction):
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(round(fraction * (len(samples) - 1))))]


def summary(name, samples):
    return "%s (N=%d): median %s, p95 %s, p99 %s, max %s" % (
        name, len(samples), milliseconds(statistics.median(samples)),
        milliseconds(percentile(samples, 0.95)), milliseconds(percentile(samples, 0.99)),
        milliseconds(max(samples)))


def p99_difference(first, other, rounds=2000):
    """The 95 % bootstrap interval of p99(other) - p99(first), in seconds: a difference the
    machine's noise could give lies inside it."""
    generator = random.Random(1)
    differences = sorted(
        percentile(generator.choices(other, k=len(other)), 0.99)
        - percentile(generator.choices(first, k=len(first)), 0.99) for _ in range(rounds))
    return differences[int(0.025 * rounds)], differences[int(0.975 * rounds)]


def early_swipes(args, argv, env, markers):
    """Key-to-frame of swipes sent right after the first card, over fresh launches; with several
    template homes, the launches take them in turn, so that the machine's drift falls on all."""
    templates = args.template_home
    frames = {template: [] for template in templates}
    for launch in range(args.launches * len(templates)):
        template = templates[launch % len(templates)]
        home = tempfile.mkdtemp(prefix="ctfo-pty-early-")
        shutil.rmtree(home)
        shutil.copytree(template, home)
        app = Terminal(argv, dict(env, CTFO_HOME=home))
        try:
            app.wait_for(markers)
            app.quiet(args.gap)
            for _ in range(args.early_swipes):
                frames[template].append(app.swipe(args.gap, args.gap)[1])
                app.drain(args.swipe_pause / 1000)
        finally:
            app.quit()
            shutil.rmtree(home, ignore_errors=True)
    name = "early swipe key-to-frame"
    if args.swipe_pause:
        name += ", a swipe every %g ms" % args.swipe_pause
    if len(templates) == 1:
        print(summary(name, frames[templates[0]]))
        return
    def label(template):
        return os.path.basename(template.rstrip("/"))
    for index, template in enumerate(templates):
        line = summary("%s [%s]" % (name, label(template)), frames[template])
        # Against each home before it: with three, the third is also compared with the second.
        for earlier in templates[:index]:
            low, high = p99_difference(frames[earlier], frames[template])
            line += "; p99 minus %s's: 95 %% interval %+.2f to %+.2f ms" % (
                label(earlier), low * 1000, high * 1000)
        print(line)


def stream(args, argv, env, markers):
    """Key-to-frame of swipes while a pipe brings --stream card updates a second, after the
    same swipes with the pipe open and quiet (the baseline, measured the same way)."""
    for rate in (0, args.stream):
        stream_once(args, argv, env, markers, rate)


def stream_once(args, argv, env, markers, rate):
    import subprocess
    read_end, write_end = os.pipe()
    feeder = subprocess.Popen([sys.executable, "-c", STREAM, str(rate),
                               str(args.stream_cards)], stdout=write_end,
                              stderr=subprocess.PIPE)
    os.close(write_end)
    app = Terminal(argv + ["--deck", "-"], env, stdin=read_end)
    os.close(read_end)
    try:
        app.wait_for(markers)
        app.quiet(args.settle)
        app.idle_ticks(1.0)  # a second of the stream before measuring
        before = rss_kb(app.pid)
        started = time.perf_counter()
        ticks = app.cpu_ticks()
        swipes = [app.swipe(args.gap, args.gap) for _ in range(args.swipes)]
        name = "during the stream" if rate else "with the pipe quiet"
        print(summary("swipe key-to-frame " + name, [frame for _, frame, _ in swipes]))
        app.idle_ticks(max(0.0, args.stream_seconds - (time.perf_counter() - started)))
        seconds = time.perf_counter() - started
        after = rss_kb(app.pid)
        print("app CPU: %.0f%% of a core over %.1f s"
              % (100.0 * (app.cpu_ticks() - ticks) / os.sysconf("SC_CLK_TCK") / seconds, seconds))
        print("memory (RSS): %d KB after the first second, %d KB %.1f s later (%+d KB)"
              % (before, after, seconds, after - before))
    finally:
        feeder.terminate()
        written = feeder.communicate()[1].split()
        status = app.quit()
    if len(written) == 2 and rate:
        print("the stream: %d updates in %.1f s, %.0f a second"
              % (int(written[0]), float(written[1]), int(written[0]) / float(written[1])))
    print("quit: %s" % ("exit %d" % os.WEXITSTATUS(status) if os.WIFEXITED(status)
                        else "signal %d" % os.WTERMSIG(status)))


NO_MOTION_WORDS = ("amber basil cedar delta ember fjord gable harbor iris jasper kestrel lagoon"
                   " meadow nectar orchid pebble quartz raven sorrel thistle umber velvet willow"
                   " yarrow zephyr").split()


def no_motion_deck(path, count=600):
    """A deck of `count` cards, each with a title and a one-line body no other card has."""
    with open(path, "w", encoding="utf-8") as deck:
        deck.write('{"deck":"bench","types":{"alpha":{"label":"Alpha"},"beta":{"label":"Beta"},'
                   '"gamma":{"label":"Gamma"}}}\n')
        cards = {}
        for i in range(count):
            words = [NO_MOTION_WORDS[(i * 7 + k * 5) % len(NO_MOTION_WORDS)] for k in range(3)]
            title = "Card %04d %s" % (i, words[0])
            body = "Body %04d: %s and %s, one line of a card." % (i, words[1], words[2])
            cards[title] = body
            deck.write(json.dumps({"id": "c%04d" % i, "type": ("alpha", "beta", "gamma")[i % 3],
                                   "title": title, "body": body}) + "\n")
    return cards


def timed_key(terminal, gap):
    """Sends Right and reads until the output pauses for `gap` ms; returns the time the key
    was sent and each read with its time. The reads are fed to a screen model only after the
    pause: a model fed while reading would delay the reads after it."""
    sent = time.perf_counter()
    os.write(terminal.fd, RIGHT)
    reads = []
    deadline = sent + 2.0
    while True:
        data = terminal.read(gap / 1000 if reads else deadline - time.perf_counter())
        if not data:
            break
        reads.append((time.perf_counter(), data))
    if not reads:
        raise TimeoutError("no frame within 2 s of a key")
    return sent, reads


def to_text(terminal, sent, reads, screen, shows):
    """Seconds from `sent` to the first read after which `shows(rows)` holds (None if none
    does within 2 s), and whether the placeholder was on screen after any read; the reads go
    to `screen` in order, and when they do not show it, the reads after them (a frame later
    than the pause that ended the reads, on a busy machine)."""
    found, placeholder = None, False
    for at, data in reads:
        screen.feed(data)
        rows = screen.text()
        placeholder = placeholder or any("Loading" in row for row in rows)
        if found is None and shows(rows):
            found = at - sent
    while found is None and time.perf_counter() < sent + 2.0:
        data = terminal.read(sent + 2.0 - time.perf_counter())
        at = time.perf_counter()
        screen.feed(data)
        rows = screen.text()
        placeholder = placeholder or any("Loading" in row for row in rows)
        if shows(rows):
            found = at - sent
    return found, placeholder


def settle(terminal, screen, seconds, until=None):
    """Feeds `screen` what the process writes for `seconds` (first until `until(rows)` holds,
    for at most 10 s)."""
    deadline = time.perf_counter() + 10
    while until is not None and not until(screen.text()):
        if time.perf_counter() > deadline:
            raise TimeoutError("nothing shown; last output: %r" % terminal.text[-300:])
        screen.feed(terminal.read(deadline - time.perf_counter()))
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        screen.feed(terminal.read(deadline - time.perf_counter()))


CARD_TITLE = re.compile(r"Card \d{4} [a-z]+")


def no_motion(args, env, binary):
    """Swipes of `ctfo --no-motion` timed to the next card's text, beside a bare ncurses full
    repaint timed to its page's text, in turns of 100; and the swipes that drew the
    placeholder. With --also, each other binary swipes in the same turns, after the first."""
    if not args.bare:
        sys.exit("pty_bench: --no-motion-swipes needs --bare")
    pause = (args.swipe_pause or 20.0) / 1000
    binaries = [binary] + [os.path.abspath(b) for b in args.also]
    folder = tempfile.mkdtemp(prefix="ctfo-pty-no-motion-")
    swipes = [[] for _ in binaries]
    placeholders = [0 for _ in binaries]
    unseen = [0 for _ in binaries]
    repaints = []
    try:
        deck = os.path.join(folder, "deck.jsonl")
        cards = no_motion_deck(deck)
        apps, screens = [], []
        for i, path in enumerate(binaries):
            home = dict(env, CTFO_HOME=os.path.join(folder, "home%d" % i), CTFO_BUNDLED_DECKS="")
            apps.append(Terminal([path, "--no-motion", "--no-analytics", "--deck", deck], home))
            screens.append(Screen())
        bare = Terminal([os.path.abspath(args.bare)], env)
        bare_screen = Screen()
        try:
            for app, screen in zip(apps, screens):
                settle(app, screen, 0.5, lambda rows: any(CARD_TITLE.search(r) for r in rows))
            settle(bare, bare_screen, 0.5, lambda rows: any(" Page 00000 " in r for r in rows))
            page = 0

            def card_on(rows, other_than=None):
                for row in rows:
                    for title in CARD_TITLE.findall(row):
                        if title != other_than and title in cards and any(
                                cards[title] in r for r in rows):
                            return title
                return None

            for turn in range(0, args.no_motion_swipes, 100):
                count = min(100, args.no_motion_swipes - turn)
                for _ in range(count):
                    page += 1
                    sent, reads = timed_key(bare, args.gap)
                    title, body = " Page %05d title " % page, " Body of page %05d," % page
                    took, _ = to_text(bare, sent, reads, bare_screen, lambda rows: any(
                        title in r for r in rows) and any(body in r for r in rows))
                    if took is None:
                        raise TimeoutError("the bare repaint did not show page %d" % page)
                    repaints.append(took)
                    settle(bare, bare_screen, pause)
                for i, (app, screen) in enumerate(zip(apps, screens)):
                    for _ in range(count):
                        before = card_on(screen.text())
                        sent, reads = timed_key(app, args.gap)
                        took, drew = to_text(app, sent, reads, screen, lambda rows: card_on(
                            rows, other_than=before) is not None)
                        placeholders[i] += drew or b"Loading" in b"".join(d for _, d in reads)
                        if took is None:
                            unseen[i] += 1
                        else:
                            swipes[i].append(took)
                        settle(app, screen, pause)
        finally:
            for app in apps:
                app.quit()
            bare.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(summary("bare ncurses full repaint key-to-text", repaints))
    for i, path in enumerate(binaries):
        name = "" if len(binaries) == 1 else " (%s)" % path
        print(summary("no-motion swipe key-to-next-card-text" + name, swipes[i]))
        print("ratio of the medians: %.2fx (goal <= 1.2x); of the p95s: %.2fx" % (
            statistics.median(swipes[i]) / statistics.median(repaints),
            percentile(swipes[i], 0.95) / percentile(repaints, 0.95)))
        print("placeholder frames in %d swipes with the ready queue full: %d (goal 0)%s" % (
            args.no_motion_swipes, placeholders[i],
            "; %d swipes showed no new card within 2 s" % unseen[i] if unseen[i] else ""))


def main():
    args = parse_arguments()
    binary = os.path.abspath(args.binary)
    markers = [m.encode() for m in args.marker or []]
    # The bundled decks stay enabled beside --deck: a card of either may come first.
    titles = (card_titles(args.deck) if args.deck else []) + bundled_titles(binary)
    # A title in a complex script may reach the terminal in pieces (cursor moves between its
    # clusters); a long card's bottom border, drawn in the same frame, is found whatever it says.
    markers = markers or (titles + [b"Enter: more"] if titles else [])
    if not markers:
        sys.exit("pty_bench: no marker: pass --marker TEXT or --deck FILE")
    own_home = "CTFO_HOME" not in os.environ
    home = os.environ.get("CTFO_HOME") or tempfile.mkdtemp(prefix="ctfo-pty-bench-")
    env = dict(os.environ, CTFO_HOME=home, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    argv = [binary] + (["--deck", os.path.abspath(args.deck)] if args.deck else [])
    if args.stream:
        stream(args, argv, env, markers)
        return
    if args.no_motion_swipes:
        no_motion(args, env, binary)
        return
    if args.early_swipes:
        if not args.template_home:
            sys.exit("pty_bench: --early-swipes needs --template-home")
        early_swipes(args, argv, env, markers)
        return

    launches = []
    for _ in range(args.launches - 1):
        app = Terminal(argv, env)
        launches.append(app.wait_for(markers))
        app.quit()
    app = Terminal(argv, env)
    try:
        launches.append(app.wait_for(markers))
        if len(launches) == 1:
            print("launch to first card: %s" % milliseconds(launches[0]))
        else:
            print(summary("launch to first card", launches))
        app.quiet(args.settle)
        swipes = [app.swipe(args.gap, args.settle) for _ in range(args.swipes)]
        print(summary("swipe key-to-first-byte", [first for first, _, _ in swipes]))
        print(summary("swipe key-to-frame", [frame for _, frame, _ in swipes]))
        print(summary("swipe key-to-settled", [settled for _, _, settled in swipes]))
        app.idle_ticks(1.0)  # the last swipes' background work (preparing, committing) ends first
        print("idle CPU over %g s: %d ticks" % (args.idle, app.idle_ticks(args.idle)))
    finally:
        status = app.quit()
        if own_home:
            shutil.rmtree(home, ignore_errors=True)
    print("quit: %s" % ("exit %d" % os.WEXITSTATUS(status) if os.WIFEXITED(status)
                        else "signal %d" % os.WTERMSIG(status)))


if __name__ == "__main__":
    main()
