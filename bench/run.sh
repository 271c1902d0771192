#!/usr/bin/env bash
# make bench: builds ctfo-bench in release mode and prints the benchmarks' figures.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
swift build -c release --static-swift-stdlib --product ctfo-bench >/dev/null
bin=.build/release/ctfo-bench
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

# Layout: the card corpus of the CardText issue at 60 columns x 12 lines, on one core.
corpus_script=${CARDCORPUS:-../shared/bench/cardcorpus.py}
python3 "$corpus_script" 2000 1 >"$out/cards.txt"
cc -O2 -shared -fPIC -o "$out/alloc-count.so" bench/alloc-count.c
echo "== layout ($corpus_script 2000 1)"
LD_PRELOAD="$PWD/$out/alloc-count.so" "${pin[@]}" "$bin" layout "$out/cards.txt" 60 12
