#!/usr/bin/env bash
# `swift build ARGS...` for make, which leaves BINARY, so that `make run` with nothing changed
# starts the app at once. Usage: scripts/swift-build.sh BINARY ARGS...   (SWIFT: the swift to run)
# Nothing runs when no file under Sources, nor Package.swift, Package.resolved or the Makefile,
# changed since the build that left BINARY as it is (a stamp in .build/stamps): SwiftPM's own
# no-op loads the package graph, two to three seconds. SwiftPM runs in scripts/swift-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
shift
swift=${SWIFT:-swift}
name=${binary#./}
name=${name#.build/}
stamp=.build/stamps/${name//\//_}
# The stamp's time is the build's start, its content what the build left (time and size).
left() { stat -c '%Y.%s' "$1" 2>/dev/null || echo none; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(left "$binary")" ] &&
  [ -z "$(find Sources Package.swift Package.resolved Makefile -newer "$stamp" -print -quit \
    2>/dev/null)" ]; then
  exit 0
fi
start=$(date +%s.%N)
echo "$swift build $*"
./scripts/swift-env.sh "$swift" build "$@"
mkdir -p .build/stamps
left "$binary" > "$stamp.new"
touch -d "@$start" "$stamp.new"
mv "$stamp.new" "$stamp"
