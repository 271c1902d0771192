#!/usr/bin/env bash
# Writes Sources/C/CBuildInfo/commit.h, the commit `ctfo --version` and `ctfo-server --version`
# print: from git, else from the name of the folder a source archive unpacked into
# (ctfo-VERSION-COMMIT), else "unknown". The file is rewritten only when the commit changes, so
# a build after a new commit recompiles one C file and links.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  commit=$(git rev-parse --short=7 HEAD)
elif [[ $(basename "$(pwd)") =~ -([0-9a-f]{7,40})$ ]]; then
  commit=${BASH_REMATCH[1]:0:7}
fi
header=Sources/C/CBuildInfo/commit.h
line="#define CTFO_COMMIT \"${commit:-unknown}\""
if [ ! -f "$header" ]; then
  echo "$line" >"$header"
  # A build before this one compiled the C file without the header, so its dependency file
  # does not name it: the compiler must be told.
  touch Sources/C/CBuildInfo/buildinfo.c
elif [ "$(cat "$header")" != "$line" ]; then
  echo "$line" >"$header"
fi
