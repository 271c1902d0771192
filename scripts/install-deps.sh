#!/usr/bin/env bash
# Installs the system packages ctfo needs to build and test, when they are missing.
set -euo pipefail
need=()
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
[ -f /usr/include/ncursesw/curses.h ] && [ -e "/usr/lib/$multiarch/libncursesw.so" ] || need+=(libncursesw5-dev)
command -v tmux >/dev/null || need+=(tmux)
command -v sqlite3 >/dev/null || need+=(sqlite3)
[ -f /usr/share/unicode/EastAsianWidth.txt ] || need+=(unicode-data)
# `ctfo` is linked statically: it needs the static archives of SQLite, libc and libstdc++.
[ -f "/usr/lib/$multiarch/libsqlite3.a" ] || need+=(libsqlite3-dev)
[ -f "/usr/lib/$multiarch/libc.a" ] || need+=(libc6-dev)
# The HTTP client's TLS (Sources/C/CTLS) links OpenSSL statically; its tests run `openssl s_server`.
[ -f "/usr/lib/$multiarch/libssl.a" ] || need+=(libssl-dev)
# gzip pulls: the client inflates with zlib (Sources/C/CZlib), linked statically too.
[ -f "/usr/lib/$multiarch/libz.a" ] && [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v openssl >/dev/null || need+=(openssl)
# scripts/schemathesis.sh asks the server for a token with curl.
command -v curl >/dev/null || need+=(curl)
# The store conformance tests start a PostgreSQL 15 of their own (initdb, pg_ctl).
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15)
# scripts/load-kill-test.sh and make bench put nginx in front of ctfo-server (nginx lives in
# /usr/sbin, outside a user's PATH).
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
[ -f "$(gcc -print-file-name=libstdc++.a 2>/dev/null)" ] || need+=(libstdc++-12-dev)
# `make fuzz` and `make sanitize` need nothing more: libFuzzer and the ASan (with LeakSanitizer)
# and TSan runtimes come with the Swift toolchain (usr/lib/clang/*/lib/linux), not libclang-rt.
# The differential width test compares with Python's wcwidth 0.7 (`wcwidth.width`, which Debian's
# python3-wcwidth 0.2.5 lacks), installed with pip below.
command -v python3 >/dev/null || need+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
# scripts/dashboard-browser-test.sh drives Debian's chromium with Playwright (pip, below): the
# system's browser, not one `playwright install` would download.
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing system packages: ${need[*]}" >&2
    echo "install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
# A Debian python3 is externally managed (PEP 668): pip then needs --break-system-packages.
pip_install() {
  echo "installing: python3 $1"
  python3 -m pip install -q "$1" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "$1"
}
python3 -c 'import wcwidth; wcwidth.width' 2>/dev/null || pip_install wcwidth==0.7.0
python3 -c 'import playwright.sync_api' 2>/dev/null || pip_install playwright==1.65.2
