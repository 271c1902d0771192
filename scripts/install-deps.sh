#!/usr/bin/env bash
# Installs the system packages a make target needs, when they are missing: as root with apt-get,
# as any other user it prints the one `apt-get install` line and stops. Usage:
#   scripts/install-deps.sh GROUP...
#   app     build and run `ctfo` (make run, build-ctfo, fuzz)
#   server  build `ctfo-server` (make build-server, serve)
#   test    make test: the test bench (tmux, PostgreSQL, nginx, chromium, Playwright, lintian...)
#   bench   make bench: fortune, hyperfine, wrk, nginx
# Checks look for files, not package names, so they cost a few stat calls (make run runs this).
set -euo pipefail
[ $# -gt 0 ] || set -- app
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
lib=/usr/lib/$multiarch
# libstdc++'s headers and archives come with the compiler's version of libstdc++-N-dev.
gcc_version=$(gcc -dumpversion 2>/dev/null || echo 12)
stdcxx=libstdc++-${gcc_version%%.*}-dev
need=()
want() {
  local package
  for package in "${need[@]}"; do [ "$package" = "$1" ] && return; done
  need+=("$1")
}
# Whether every file named exists: files FILE...
files() {
  local file
  for file; do [ -f "$file" ] || return 1; done
}
# Whether every command named runs: commands COMMAND...
commands() {
  local name path
  for name; do
    path=$(command -v "$name") || path=/usr/sbin/$name
    [ -f "$path" ] && [ -x "$path" ] || return 1
  done
}
pip=()

group_app() {
  # `ctfo` is linked fully statically (-static-executable): the static archive and the headers
  # of each C library it links (Sources/C/*: ncursesw and tinfo, SQLite, OpenSSL, zlib), libc's
  # and libstdc++'s (the Swift runtime's).
  files /usr/include/ncursesw/curses.h "$lib/libncursesw.a" "$lib/libtinfo.a" ||
    want libncursesw5-dev
  files /usr/include/sqlite3.h "$lib/libsqlite3.a" || want libsqlite3-dev
  files "$lib/libc.a" || want libc6-dev
  files /usr/include/openssl/ssl.h "$lib/libssl.a" "$lib/libcrypto.a" || want libssl-dev
  files /usr/include/zlib.h "$lib/libz.a" || want zlib1g-dev
  files "$(gcc -print-file-name=libstdc++.a 2>/dev/null)" || want "$stdcxx"
}

group_server() {
  # The server links SQLite and zlib dynamically, the Swift runtime and Foundation statically.
  files /usr/include/sqlite3.h "$lib/libsqlite3.so" || want libsqlite3-dev
  files /usr/include/zlib.h "$lib/libz.so" || want zlib1g-dev
  files "$(gcc -print-file-name=libstdc++.so 2>/dev/null)" || want "$stdcxx"
}

group_test() {
  group_app
  group_server
  # The end-to-end suites drive the app in tmux; the store tests read with sqlite3; TLS tests
  # run `openssl s_server`; scripts/schemathesis.sh asks for a token with curl.
  commands tmux || want tmux
  # DecksTests read fortune's own cookie files and their strfile indexes.
  files /usr/share/games/fortunes/riddles.dat || want fortunes-min
  commands sqlite3 || want sqlite3
  commands openssl || want openssl
  commands curl || want curl
  # The store conformance tests start a PostgreSQL 15 of their own (initdb, pg_ctl).
  files /usr/lib/postgresql/15/bin/initdb || want postgresql-15
  # scripts/load-kill-test.sh puts nginx in front of ctfo-server.
  commands nginx || want nginx-light
  # scripts/dashboard-browser-test.sh drives Debian's chromium with Playwright (pip, below): the
  # system's browser, not one `playwright install` would download.
  files /usr/bin/chromium || want chromium
  # make dist, deb and dist-test (scripts/deb.sh, dist-test.sh).
  commands strip || want binutils
  commands dpkg-shlibdeps || want dpkg-dev
  commands lintian || want lintian
  commands file || want file
  commands groff || want groff-base
  commands man || want man-db
  # scripts/generate-unicode-tables.py reads the Unicode data of the width tables.
  files /usr/share/unicode/EastAsianWidth.txt || want unicode-data
  commands python3 || want python3
  python3 -m pip --version >/dev/null 2>&1 || want python3-pip
  # The differential width test compares with Python's wcwidth 0.7 (`wcwidth.width`, which
  # Debian's python3-wcwidth 0.2.5 lacks). scripts/schemathesis.sh installs schemathesis itself.
  python3 -c 'import wcwidth; wcwidth.width' 2>/dev/null || pip+=(wcwidth==0.7.0)
  python3 -c 'import playwright.sync_api' 2>/dev/null || pip+=(playwright==1.65.2)
}

group_bench() {
  group_app
  group_server
  files /usr/games/fortune || want fortune-mod
  commands hyperfine || want hyperfine
  files /usr/bin/time || want time
  commands wrk || want wrk
  commands nginx || want nginx-light
  commands python3 || want python3
}

for group; do
  case $group in
    app | server | test | bench) "group_$group" ;;
    *) echo "$0: unknown group '$group' (app, server, test, bench)" >&2; exit 2 ;;
  esac
done

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing system packages; install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# A Debian python3 is externally managed (PEP 668): pip then needs --break-system-packages.
for package in "${pip[@]}"; do
  echo "installing: python3 $package"
  python3 -m pip install -q "$package" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "$package"
done
