#!/usr/bin/env bash
# Checks what `make dist` and `make deb` wrote: the archive unpacked anywhere runs with an empty
# environment, its ctfo is static, a second build gives the same bytes; the archive and the
# packages say what they were built from (DEPENDENCIES), as the programs do, and it is what the
# build checked out; the packages have their layout, run from a folder they are extracted into,
# and pass lintian; the man pages render without a warning. Prints each failure and exits 1 if there was any.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/release-env.sh || exit 1
need file:file groff:groff-base man:man-db lintian:lintian curl:curl python3:python3

tmp=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
checks=0
failures=0
fail() { echo "dist-test: FAIL: $*" >&2; failures=$((failures + 1)); }
check() { checks=$((checks + 1)); }
# Starts a ctfo-server on a free port and a store of its own, and checks that it loaded the
# bundled decks found beside it and answers /healthz: serves WHERE PROGRAM.
serves() {
  local dir=$tmp/serve-$1 port="" tries
  mkdir -p "$dir/home"
  # env execs the server: $! is the server's own pid, which the kill below (or the trap) stops.
  env -i HOME="$dir/home" PATH=/usr/bin:/bin "$2" serve --port 0 --data "$dir/data" \
    > "$dir/out" 2> "$dir/err" &
  server=$!
  for tries in $(seq 100); do
    port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$dir/out")
    [ -n "$port" ] || ! kill -0 "$server" 2>/dev/null && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    fail "ctfo-server from $1 did not start listening: $(cat "$dir/err")"
  elif ! grep -q 'decks loaded: [1-9][0-9]* cards' "$dir/err"; then
    fail "ctfo-server from $1 loaded no bundled deck: $(cat "$dir/err")"
  elif [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" != 200 ]; then
    fail "ctfo-server from $1 does not answer /healthz with 200"
  fi
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  server=""
}
# Runs a program as a start-up file would, in a home of its own: clean NAME PROGRAM ARGS...
clean() {
  local home=$tmp/home-$1
  shift
  mkdir -p "$home"
  env -i HOME="$home" PATH=/usr/bin:/bin "$@"
}

name=ctfo-$VERSION-linux-$(uname -m)
archive=$DIST_DIR/$name.tar.gz
arch=$(dpkg --print-architecture)
debs=("$DIST_DIR/ctfo_${VERSION}_$arch.deb" "$DIST_DIR/ctfo-server_${VERSION}_$arch.deb")
for file in "$archive" "$archive.sha256" "${debs[@]}"; do
  [ -f "$file" ] || { echo "dist-test: $file is missing: run make dist and make deb" >&2; exit 1; }
done

# The archive: its checksum, its files, its programs run from where it is unpacked.
check
(cd "$DIST_DIR" && sha256sum --quiet -c "$name.tar.gz.sha256") ||
  fail "$archive does not match $archive.sha256"
mkdir "$tmp/unpacked"
check
tar -xzf "$archive" -C "$tmp/unpacked" || fail "$archive does not unpack"
top=$tmp/unpacked/$name
for path in bin/ctfo bin/ctfo-server share/ctfo/decks/facts.jsonl share/man/man1/ctfo.1 \
  share/man/man1/ctfo-server.1 share/bash-completion/completions/ctfo \
  share/zsh/site-functions/_ctfo share/fish/vendor_completions.d/ctfo.fish README.md LICENSE \
  CHANGELOG.md DEPENDENCIES; do
  check
  [ -s "$top/$path" ] || fail "$name/$path is missing or empty in $archive"
done
for unit in ctfo-server.service ctfo-server@.service; do
  check
  cmp -s "$top/lib/systemd/system/$unit" "Resources/systemd/$unit" ||
    fail "$name/lib/systemd/system/$unit is not Resources/systemd/$unit"
done
check
owners=$(tar -tvzf "$archive" | awk '{ print $2 }' | sort -u)
[ "$owners" = 0/0 ] || fail "$archive holds files not owned by 0/0: $owners"

check
out=$(clean archive "$top/bin/ctfo" next -n 2 2>&1)
status=$?
if [ $status -ne 0 ]; then
  fail "ctfo next -n 2 from the unpacked archive exited $status: $out"
elif ! grep -qx % <<<"$out"; then
  fail "ctfo next -n 2 from the unpacked archive printed no two cards: $out"
fi
check
out=$(clean archive "$top/bin/ctfo" --version 2>&1)
[ "${out%% *}" = "$VERSION" ] || fail "ctfo --version from the unpacked archive printed: $out"
check
out=$(file "$top/bin/ctfo")
grep -q 'statically linked' <<<"$out" || fail "the archive's bin/ctfo is not static: $out"
check
out=$(clean archive "$top/bin/ctfo-server" --version 2>&1)
[ "${out%% *}" = "$VERSION" ] ||
  fail "ctfo-server --version from the unpacked archive printed: $out"
check
serves "the unpacked archive" "$top/bin/ctfo-server"

# What the release was built from: DEPENDENCIES is what both programs print with --version
# --verbose (the version line, the toolchain, then IDENTITY VERSION REVISION a package), its
# toolchain the one here, its packages the ones each program's build checked out (the
# workspace-state.json of its scratch folder), every one of them.
listed=$(cat "$top/DEPENDENCIES" 2>/dev/null)
for program in ctfo ctfo-server; do
  check
  out=$(clean archive "$top/bin/$program" --version --verbose 2>&1)
  [ "$out" = "$listed" ] || fail "bin/$program --version --verbose differs from $name/DEPENDENCIES:" \
    "$(diff <(echo "$listed") <(echo "$out"))"
done
check
[ "$(sed -n 1p <<<"$listed")" = "$(clean archive "$top/bin/ctfo" --version)" ] ||
  fail "$name/DEPENDENCIES does not start with the version line: $(sed -n 1p <<<"$listed")"
check
toolchain=$(${SWIFT:-swift} --version 2>&1 | head -1)
[ "$(sed -n 2p <<<"$listed")" = "$toolchain" ] ||
  fail "$name/DEPENDENCIES names the toolchain '$(sed -n 2p <<<"$listed")', not '$toolchain'"
# The packages a build checked out, as build-info.sh lists them: checked_out BINARY.
checked_out() {
  local dir
  dir=$(dirname "$1")
  while [ "$dir" != . ] && [ "$dir" != / ] && [ ! -f "$dir/workspace-state.json" ]; do
    dir=$(dirname "$dir")
  done
  python3 - "$dir/workspace-state.json" <<'PY' | LC_ALL=C sort
import json, sys
for dependency in json.load(open(sys.argv[1]))["object"]["dependencies"]:
    state = dependency["state"]
    checkout = state.get("checkoutState", {})
    version = checkout.get("version") or (
        "branch:" + checkout["branch"] if checkout.get("branch") else "-")
    print(dependency["packageRef"]["identity"], version, checkout.get("revision", state["name"]))
PY
}
packages=$(tail -n +3 <<<"$listed")
for binary in "$CTFO_BIN" "$CTFO_SERVER_BIN"; do
  check
  if ! built=$(checked_out "$binary"); then
    fail "no workspace-state.json above $binary: cannot check what its build checked out"
  elif [ -z "$packages" ] || [ "$packages" != "$built" ]; then
    fail "$name/DEPENDENCIES does not list the packages the build of $binary checked out:" \
      "$(diff <(echo "$packages") <(echo "$built"))"
  fi
done

# A second build of the same commit gives the same bytes.
mkdir "$tmp/again"
check
if DIST_DIR=$tmp/again ./scripts/dist.sh >/dev/null; then
  first=$(sha256sum < "$archive")
  second=$(sha256sum < "$tmp/again/$name.tar.gz")
  [ "$first" = "$second" ] ||
    fail "two builds of the archive differ: ${first%% *} and ${second%% *} again" \
      "(a new commit since make dist also changes the files' time)"
else
  fail "scripts/dist.sh failed the second time"
fi
check
if DIST_DIR=$tmp/again DEB_LINTIAN=0 ./scripts/deb.sh >/dev/null; then
  for deb in "${debs[@]}"; do
    cmp -s "$deb" "$tmp/again/${deb##*/}" || fail "two builds of $deb differ"\
      "(a new commit since make deb also changes the files' time)"
  done
else
  fail "scripts/deb.sh failed the second time"
fi

# The packages: their fields, their layout, owned by root.
for deb in "${debs[@]}"; do
  package=$(dpkg-deb --field "$deb" Package)
  check
  info=$(dpkg-deb --info "$deb") || fail "dpkg-deb --info $deb failed"
  for field in "Package: $package" "Version: $VERSION" "Architecture: $arch" "Maintainer: " \
    "Installed-Size: " "Description: "; do
    grep -q "^ $field" <<<"$info" || fail "$deb: no '$field' in dpkg-deb --info"
  done
  check
  contents=$(dpkg-deb --contents "$deb") || fail "dpkg-deb --contents $deb failed"
  owners=$(awk '{ print $2 }' <<<"$contents" | sort -u)
  [ "$owners" = root/root ] || fail "$deb holds files not owned by root/root: $owners"
  case $package in
    ctfo) paths="usr/bin/ctfo usr/share/ctfo/decks/facts.jsonl usr/share/man/man1/ctfo.1.gz
      usr/share/bash-completion/completions/ctfo usr/share/zsh/vendor-completions/_ctfo
      usr/share/fish/vendor_completions.d/ctfo.fish" ;;
    ctfo-server) paths="usr/bin/ctfo-server usr/share/man/man1/ctfo-server.1.gz
      usr/lib/systemd/system/ctfo-server.service usr/lib/systemd/system/ctfo-server@.service"
      for script in postinst prerm postrm; do
        grep -q " $script " <<<"$info" || fail "$deb has no $script"
      done ;;
  esac
  for path in $paths "usr/share/doc/$package/copyright" \
    "usr/share/doc/$package/changelog.Debian.gz" "usr/share/doc/$package/changelog.gz" \
    "usr/share/doc/$package/DEPENDENCIES"; do
    grep -q " \./$path\$" <<<"$contents" || fail "$deb does not hold /$path"
  done
  check
  out=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$package/DEPENDENCIES")
  [ -n "$out" ] && [ "$out" = "$listed" ] ||
    fail "$deb: /usr/share/doc/$package/DEPENDENCIES differs from $name/DEPENDENCIES:" \
      "$(diff <(echo "$listed") <(echo "$out"))"
  check
  head -1 <(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$package/copyright") |
    grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "$deb: its copyright is not in the machine-readable (DEP-5) format"
done

# Each package extracted into a folder of its own runs from there.
check
dpkg -x "${debs[0]}" "$tmp/root-ctfo" || fail "dpkg -x ${debs[0]} failed"
out=$(clean deb "$tmp/root-ctfo/usr/bin/ctfo" next -n 1 2>&1)
status=$?
[ $status -eq 0 ] && [ -n "$out" ] ||
  fail "usr/bin/ctfo next -n 1 from the extracted package exited $status: $out"
check
dpkg -x "${debs[1]}" "$tmp/root-server" || fail "dpkg -x ${debs[1]} failed"
out=$(clean deb "$tmp/root-server/usr/bin/ctfo-server" --version 2>&1)
[ "${out%% *}" = "$VERSION" ] ||
  fail "usr/bin/ctfo-server --version from the extracted package printed: $out"
# With ctfo's package beside it, as its Recommends has it, the server serves the bundled decks.
check
dpkg -x "${debs[0]}" "$tmp/root-server" || fail "dpkg -x ${debs[0]} failed"
serves "the extracted packages" "$tmp/root-server/usr/bin/ctfo-server"

check
out=$(lintian --fail-on error "${debs[@]}" 2>&1) || fail "lintian reports errors: $out"

# The man pages render without a warning, in UTF-8 and in ASCII.
for page in Resources/man/ctfo.1 Resources/man/ctfo-server.1; do
  check
  out=$(groff -ww -man -Tutf8 -z "$page" 2>&1; groff -ww -man -Tascii -z "$page" 2>&1)
  [ -z "$out" ] || fail "groff -ww warns on $page: $out"
  check
  out=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
  [ -z "$out" ] || fail "man -l $page warns: $out"
done

if [ $failures -gt 0 ]; then
  echo "dist-test: $failures of $checks checks failed" >&2
  exit 1
fi
echo "dist-test: $checks checks passed ($archive, ${debs[*]})"
