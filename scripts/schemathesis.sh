#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a real ctfo-server on a free loopback port, with a token
# from /v1/auth, checking every answer against openapi.yaml. Usage:
#   scripts/schemathesis.sh [SERVER_BINARY]      (default .build/server/release/ctfo-server)
# With CTFO_SERVER_STORE=postgres://... set, the server runs on that PostgreSQL database; with
# SCHEMATHESIS_STORE=postgres, on a PostgreSQL 15 of its own (scripts/postgres-temp.sh).
# Installs schemathesis with pip when it is missing. Exits with schemathesis's status.
set -euo pipefail
cd "$(dirname "$0")/.."
server=${1:-.build/server/release/ctfo-server}
version=4.32.5
if ! command -v st >/dev/null || [ "$(st --version 2>/dev/null | awk '{print $3}')" != "$version" ]; then
  echo "installing: schemathesis $version"
  python3 -m pip install -q "schemathesis==$version" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "schemathesis==$version"
fi
work=$(mktemp -d)
pid=
. scripts/postgres-temp.sh
trap '[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; pg_temp_stop; rm -rf "$work"' EXIT
if [ "${SCHEMATHESIS_STORE:-}" = postgres ]; then
  pg_temp_start
  CTFO_SERVER_STORE=$(pg_temp_createdb schemathesis)
  export CTFO_SERVER_STORE
  echo "store: PostgreSQL 15 in $PG_TEMP"
fi
# A generous rate limit: schemathesis sends hundreds of requests with one token.
store=(--data "$work/data")
[ -z "${CTFO_SERVER_STORE:-}" ] || store=()
"$server" --port 0 "${store[@]}" --rate-limit 100000 > "$work/out" 2> "$work/log" &
pid=$!
for _ in $(seq 100); do grep -q '^listening on' "$work/out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/out")
[ -n "$port" ] || { echo "ctfo-server did not start" >&2; cat "$work/log" >&2; exit 1; }
token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/auth" -H 'Content-Type: application/json' \
  -d '{"installId":"schemathesis","device":{"platform":"linux","app":"st","locale":"C"},"user":{},"clientTime":0}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
status=0
st run openapi.yaml --url "http://127.0.0.1:$port" -H "Authorization: Bearer $token" \
  --checks all --max-examples "${SCHEMATHESIS_EXAMPLES:-50}" --generation-deterministic || status=$?
# A failure names the server's side too: what it logged above info (a 503's cause).
if [ "$status" -ne 0 ]; then
  echo "ctfo-server's log, warnings and errors:" >&2
  grep -v ' info ' "$work/log" | cut -c1-600 | head -40 >&2 || true
fi
exit "$status"
