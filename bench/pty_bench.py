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
