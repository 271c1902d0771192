#!/usr/bin/env bash
# Builds `ctfo-fuzz` with libFuzzer and AddressSanitizer, then runs each harness for
# FUZZ_SECONDS (default 60) on its seed corpus in Tests/Fuzz/Corpus. Usage:
#   scripts/fuzz.sh [HARNESS...]
# (decks text config keys mouse answers pulls sessions deadlines when none is named).
# New inputs go to .build/fuzz/corpus/HARNESS (kept between runs), crashes to
# .build/fuzz/crashes. Exits 1 when any harness crashed, leaked, hung or ran out of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-60}
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] ||
  harnesses=(decks text config keys mouse answers pulls sessions deadlines)
scratch=.build/fuzz
mkdir -p "$scratch"
# The linker warns about every ASan symbol it cannot export: the log is shown only on failure.
# swiftc's -sanitize=fuzzer alone leaves the Swift code without coverage counters (libFuzzer
# then reports "2 inline 8-bit counters" and mutates blind): ask for libFuzzer's own kind.
if ! "$swift" build --scratch-path "$scratch" --sanitize=fuzzer --sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  --product ctfo-fuzz > "$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  exit 1
fi
fuzzer="$scratch/debug/ctfo-fuzz"
failed=()
for harness in "${harnesses[@]}"; do
  mkdir -p "$scratch/corpus/$harness" "$scratch/crashes"
  echo "fuzzing $harness for ${seconds}s"
  # Each input within 10 s and 2 GB, the run within the given time; ASan and libFuzzer report
  # a crash, not the Swift backtracer.
  if ! SWIFT_BACKTRACE=enable=no CTFO_FUZZ="$harness" "$fuzzer" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/crashes/$harness-" \
    "$scratch/corpus/$harness" "Tests/Fuzz/Corpus/$harness" 2> "$scratch/$harness.log"; then
    failed+=("$harness")
    tail -n 40 "$scratch/$harness.log" >&2
  elif grep -q 'no interesting inputs were found' "$scratch/$harness.log"; then
    failed+=("$harness")
    echo "$harness: the fuzzer saw no coverage (is the code instrumented?)" >&2
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$scratch/$harness.log" | tr '\n' ' '
  echo
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]} (inputs in $scratch/crashes)" >&2
  exit 1
fi
