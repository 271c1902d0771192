#!/usr/bin/env bash
# SIGKILLs `ctfo-bench swipe-loop` at random moments, RUNS times. After every kill the state
# database must pass integrity_check, hold every card that was drawn, and carry the reaction
# of every swipe whose next card was drawn.
# Usage: scripts/store-kill-test.sh [BENCH_BINARY] [RUNS]
set -euo pipefail
bench=${1:-.build/release/ctfo-bench}
runs=${2:-50}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
db="$home/state/ctfo.sqlite"
for run in $(seq "$runs"); do
  "$bench" swipe-loop "$home" 1000000 >"$home/out" &
  pid=$!
  sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  check=$(sqlite3 "$db" "PRAGMA integrity_check")
  [ "$check" = ok ] || { echo "run $run: integrity_check says: $check"; exit 1; }
  drawn=$(grep -c '^drawn [0-9]*$' "$home/out" || true)
  [ "$drawn" -gt 0 ] || { echo "run $run: killed before the first card"; continue; }
  first=$(grep -m1 -o '[0-9]*$' "$home/out")
  last=$(grep '^drawn [0-9]*$' "$home/out" | tail -1 | grep -o '[0-9]*$')
  missing=$(sqlite3 "$db" \
    "SELECT $last - $first + 1 - COUNT(*) FROM history WHERE idx BETWEEN $first AND $last")
  unreacted=$(sqlite3 "$db" \
    "SELECT COUNT(*) FROM history WHERE idx >= $first AND idx < $last AND reaction IS NULL")
  echo "run $run: drew $first..$last, integrity ok, missing $missing, unreacted $unreacted"
  [ "$missing" -eq 0 ] && [ "$unreacted" -eq 0 ] || exit 1
done
echo "all $runs runs ok"
