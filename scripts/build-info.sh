#!/usr/bin/env bash
# Writes what `ctfo --version` and `ctfo-server --version` print, where the build reads it
# (Sources/C/CBuildInfo):
#   commit.h        the commit: from git, else from the name of the folder a source archive
#                   unpacked into (ctfo-VERSION-COMMIT), else "unknown";
#   dependencies.h  what `--version --verbose` adds: the Swift toolchain, then every package of
#                   the graph, direct and transitive, as `IDENTITY VERSION REVISION` from
#                   Package.resolved (resolved first when it is missing or Package.swift changed).
# A file is rewritten only when its content changes, so a build with nothing changed compiles
# and links nothing, and one after a new commit recompiles one C file and links.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
dir=Sources/C/CBuildInfo

# Writes stdin to FILE when it differs from what FILE holds: update FILE.
update() {
  local content
  content=$(cat)
  [ -f "$1" ] && [ "$(cat "$1")" = "$content" ] && return
  local new=false
  [ -f "$1" ] || new=true
  printf '%s\n' "$content" > "$1"
  # A build before this one compiled the C file without the header, so its dependency file
  # does not name it: the compiler must be told.
  if $new; then touch "$dir/buildinfo.c"; fi
}

commit=
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  commit=$(git rev-parse --short=7 HEAD)
elif [[ $(basename "$(pwd)") =~ -([0-9a-f]{7,40})$ ]]; then
  commit=${BASH_REMATCH[1]:0:7}
fi
echo "#define CTFO_COMMIT \"${commit:-unknown}\"" | update "$dir/commit.h"

# The dependencies are read again only when Package.resolved, Package.swift or the toolchain is
# newer than the last reading (the stamp): `swift --version` alone takes a tenth of a second.
stamp=.build/build-info.stamp
swiftc=$(command -v "${swift%swift}swiftc" 2>/dev/null || command -v swiftc || echo /)
if [ ! -f Package.resolved ] || [ Package.swift -nt "$stamp" ]; then
  ./scripts/swift-env.sh "$swift" package resolve >&2
fi
if [ ! -f "$dir/dependencies.h" ] || [ Package.resolved -nt "$stamp" ] ||
  [ Package.swift -nt "$stamp" ] || [ "$swiftc" -nt "$stamp" ]; then
  toolchain=$("$swift" --version 2>&1 | head -1)
  # Package.resolved (versions 2 and 3) as SwiftPM writes it: one "key" : "value" a line (the
  # file's own "version" : 3 has no quotes around its value, hence NF).
  packages=$(awk -F'"' '
    function flush() { if (id != "") print id, (version != "" ? version : "-"), revision }
    NF < 5 { next }
    $2 == "identity" { flush(); id = $4; version = ""; revision = "" }
    $2 == "version" { version = $4 }
    $2 == "branch" { version = "branch:" $4 }
    $2 == "revision" { revision = $4 }
    END { flush() }' Package.resolved | LC_ALL=C sort)
  {
    echo "/* What this build was made with (scripts/build-info.sh): the toolchain, then every"
    echo "   package of Package.resolved as IDENTITY VERSION REVISION. */"
    echo "#define CTFO_DEPENDENCIES \\"
    printf '%s\n' "$toolchain" "$packages" | sed 's/[\\"]/\\&/g; s/.*/  "&\\n" \\/'
    echo '  ""'
  } | update "$dir/dependencies.h"
  mkdir -p .build
  touch "$stamp"
fi
