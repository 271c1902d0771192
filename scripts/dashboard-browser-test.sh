#!/usr/bin/env bash
# The operator's dashboard (GET /dashboard) in a real browser: Debian's chromium, headless,
# driven by Playwright for Python, against a real ctfo-server on a free loopback port with a
# small deck and events seeded through the API. Checks who may see the page (the admin token
# as a bearer token or through the login's cookie), that it asks for nothing but itself, runs
# no script and logs no error, that every bar is as tall as its count says (in the markup and
# as rendered), that the tables say the seeded counts and that hostile names stay text; saves a
# full-page screenshot to .build/dashboard.png (Tests/Scripts/dashboard_browser.py holds the test).
# Bounded by 60 s; the server is stopped on exit.
# Usage: scripts/dashboard-browser-test.sh [SERVER_BINARY]   (default .build/server/release/ctfo-server)
set -euo pipefail
cd "$(dirname "$0")/.."
server=$(realpath -m "${1:-.build/server/release/ctfo-server}")
[ -x "$server" ] || { echo "no server binary at $server" >&2; exit 1; }

# Playwright drives the system's chromium (no `playwright install`, no browser download).
missing=()
python3 -c 'import playwright.sync_api' 2>/dev/null || missing+=("Playwright for Python (pip: playwright)")
[ -x /usr/bin/chromium ] || missing+=("Debian's chromium (/usr/bin/chromium)")
if [ ${#missing[@]} -gt 0 ]; then
  printf 'missing: %s\n' "${missing[@]}" >&2
  echo "make test installs them (make deps, scripts/install-deps.sh: apt-get install chromium," \
    "pip install playwright); or run ./scripts/install-deps.sh as root" >&2
  exit 1
fi

# The script keeps its own 60 s deadline and stops the server; this one is for a script that hangs
# anyway (SIGTERM, then SIGKILL 5 s later; the server dies with it).
timeout -k 5 75 python3 Tests/Scripts/dashboard_browser.py "$server"
