#!/usr/bin/env python3
"""Runs commands in turn, round after round, and prints each one's median wall time.

usage: alternate.py ROUNDS COMMAND... (each COMMAND one string, split as a shell would)

hyperfine times one command's runs, then the next command's: on a shared machine whose speed
drifts over minutes, that compares moments as much as commands. Here every round runs each
command once, in order, so the drift falls on all of them alike. The first 10 rounds warm up.
Standard output goes to /dev/null; the last command is the reference the others are compared to.
"""
import os
import shlex
import statistics
import sys
import time

rounds = int(sys.argv[1])
commands = [shlex.split(c) for c in sys.argv[2:]]
devnull = os.open(os.devnull, os.O_WRONLY)
actions = [(os.POSIX_SPAWN_DUP2, devnull, 1)]
times = [[] for _ in commands]
for r in range(rounds + 10):
    for i, argv in enumerate(commands):
        start = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit(f"alternate.py: {' '.join(argv)} failed ({status})")
        if r >= 10:
            times[i].append((time.perf_counter_ns() - start) / 1e6)
reference = statistics.median(times[-1])
for text, t in zip(sys.argv[2:], times):
    median = statistics.median(t)
    t.sort()
    print(f"{median:6.2f} ms median (p10 {t[len(t) // 10]:5.2f}, p90 {t[9 * len(t) // 10]:5.2f}), "
          f"{median / reference:4.2f}x  {os.path.basename(text)}")
