#!/usr/bin/env bash
# make bench's rows for ctfo-server beside nginx, and for two ctfo-server processes on
# PostgreSQL beside one on SQLite (bench/run.sh runs it; it runs alone as well):
#   bench/server-vs-nginx.sh [SERVER_BINARY]   (default .build/server/release/ctfo-server)
# Environment: ROUNDS (turns of each measurement, default 3), SECONDS_EACH (of one wrk run,
# default 10), SECTIONS ("nginx postgres", the default, or either alone).
# Every measurement is wrk -t2 -c32 on loopback, the contenders taking turns round after round,
# so that the machine's drift falls on all alike; the figure kept is the median.
set -euo pipefail
cd "$(dirname "$0")/.."
server=$(realpath -m "${1:-.build/server/release/ctfo-server}")
rounds=${ROUNDS:-3}
seconds=${SECONDS_EACH:-10}
sections=${SECTIONS:-nginx postgres}
[ -x "$server" ] || { echo "no server binary at $server" >&2; exit 1; }
command -v wrk >/dev/null || { echo "bench needs wrk (apt-get install wrk)" >&2; exit 1; }

# The bundled decks of this tree, as the built binary finds them above itself (a binary
# elsewhere would find none and serve no cards).
export CTFO_BUNDLED_DECKS=${CTFO_BUNDLED_DECKS:-$(pwd)/Resources/decks}
. scripts/postgres-temp.sh
. scripts/nginx-temp.sh
work=$(mktemp -d)
# The servers this script started and has not reaped, by name.
declare -A pids ports
# Stops the server named $1 with SIGTERM (it drains its requests, closes its store and exits);
# one still there 10 s later is said and SIGKILLed, so that a hung stop cannot hang the bench.
stop_server() {
  local pid=${pids[$1]}
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    [ -e "/proc/$pid" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$pid/stat" 2>/dev/null || break
    sleep 0.1
  done
  if [ -e "/proc/$pid" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$pid/stat" 2>/dev/null; then
    echo "WARNING: ctfo-server $1 (pid $pid) still running 10 s after SIGTERM; its log ends:" \
      "$(tail -n 1 "$work/$1.log")"
    kill -9 "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
  unset "pids[$1]"
}
cleanup() {
  nginx_temp_stop
  for name in "${!pids[@]}"; do stop_server "$name"; done
  pg_temp_stop
  rm -rf "$work"
}
trap cleanup EXIT

# Starts a ctfo-server named $1 on a free port with the options after it; sets ports[$1].
start_server() {
  local name=$1
  shift
  "$server" serve --port 0 --rate-limit 100000000 "$@" >"$work/$name.out" 2>"$work/$name.log" &
  pids[$name]=$!
  for _ in $(seq 100); do grep -q '^listening on' "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
  ports[$name]=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/$name.out")
  [ -n "${ports[$name]}" ] || { echo "ctfo-server $name did not start:" >&2; cat "$work/$name.log" >&2; exit 1; }
}

# A token for the install $2 from the server at $1.
auth() {
  curl -sf -X POST "$1/v1/auth" -H 'Content-Type: application/json' \
    -d "{\"installId\":\"$2\",\"device\":{\"platform\":\"linux\",\"app\":\"bench\",\"locale\":\"C\"},\"user\":{},\"clientTime\":0}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}

# The value of the header $1 in the header dump $2.
header() {
  sed -n "s/^$1: *\\(.*\\)\\r\$/\\1/Ip" "$2" | tail -1
}

# The status of a GET of $1 with the headers after it (curl -H arguments).
status_of() {
  local url=$1
  shift
  curl -s -o /dev/null -w '%{http_code}' "$@" "$url"
}

# One wrk run of the script $2 against $1: appends "LABEL RATE REQUESTS BAD" to $work/rates,
# BAD the answers wrk counts as errors (status 400 or more) plus its socket errors (a timeout
# is a request unanswered after 2 s); prints the rate, the latency's p99 and maximum, and the
# errors by kind.
measure() {
  local url=$1 lua=$2 label=$3 out
  out=$(wrk -t2 -c32 -d"${seconds}s" --latency -s "$lua" "$url")
  awk -v label="$label" '
    /Requests\/sec:/ { rate = $2 }
    / requests in / { requests = $1 }
    /^ +Latency +[0-9]/ { max = $4 }
    /^ +99%/ { p99 = $2 }
    /Non-2xx or 3xx responses:/ { status = $NF }
    /Socket errors:/ { gsub(",", ""); socket = $4 + $6 + $8; timeouts = $10 }
    END {
      bad = status + socket + timeouts
      printf "%s %s %d %d\n", label, rate, requests, bad >> "'"$work/rates"'"
      errors = ""
      if (status > 0) errors = errors ", " status " answers >= 400"
      if (timeouts > 0) errors = errors ", " timeouts " timeouts"
      if (socket > 0) errors = errors ", " socket " socket errors"
      printf "  %-26s %8.0f req/s  p99 %8s  max %8s%s\n", label, rate, p99, max, errors
    }' <<<"$out"
}

# The median rate of each label of $work/rates, and the median of the per-round ratios of the
# pairs "A/B" given (A's and B's runs taken in turn, the k-th of A with the k-th of B).
summarise() {
  python3 - "$work/rates" "$@" <<'PY'
import collections, statistics, sys
rates = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, rate, requests, bad = line.split()
    rates[label].append(float(rate))
for pair in sys.argv[2:]:
    a, b, goal = pair.split(":")
    ratios = [x / y for x, y in zip(rates[a], rates[b]) if y > 0]
    median = statistics.median(ratios)
    verdict = "" if goal == "-" else (f" (goal >= {goal}x: " + ("met" if median >= float(goal) else "NOT met") + ")")
    print(f"  {a} / {b}: median {statistics.median(rates[a]):,.0f} / {statistics.median(rates[b]):,.0f} req/s, "
          f"median per-round ratio {median:.2f}x{verdict}")
PY
}

# wrk scripts: a GET of $3 with the headers after it, one "NAME: VALUE" an argument.
get_lua() {
  local file=$1 path=$2
  shift 2
  {
    echo "wrk.path = \"$path\""
    for h in "$@"; do
      printf 'wrk.headers["%s"] = [==[%s]==]\n' "${h%%: *}" "${h#*: }"
    done
  } >"$file"
}

# A POST of a batch of $3 new events a request to /v1/events: each $insert_id is unique by the
# run's label, the thread, a random salt of the thread and the thread's request counter.
events_lua() {
  local file=$1 token=$2 per=$3 label=$4
  cat >"$file" <<LUA
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
function init(args)
  math.randomseed(os.time() + tid * 7919)
  salt = string.format("%05x", math.random(0, 0xfffff))
  now = os.time() * 1000
  counter = 0
  headers = { ["Authorization"] = "Bearer $token", ["Content-Type"] = "application/json" }
end
function request()
  counter = counter + 1
  local events = {}
  for i = 1, $per do
    events[i] = string.format(
      '{"event":"bench","properties":{"time":%d,"distinct_id":"bench","\$insert_id":"$label-%d-%s-%d-%d"}}',
      now, tid, salt, counter, i)
  end
  return wrk.format("POST", "/v1/events", headers, "[" .. table.concat(events, ",") .. "]")
end
LUA
}

# The counter lines of a server's /metrics: requests by route and status, pulls, events.
metrics() {
  curl -sf "$1/metrics" \
    | grep -E '^ctfo_(http_requests_total|pulls_served_total|pulls_from_memory_total|events_ingested_total\{sink="ctfo"\})' \
    | grep -v ' 0$' | sed 's/^/    /'
}

if [[ " $sections " == *" nginx "* ]]; then
  echo "== server beside nginx: the same pull bytes, wrk -t2 -c32 -d${seconds}s, in turn, $rounds rounds"
  echo "(goals: 304 pulls >= 0.5x nginx's, full gzip pulls >= 0.5x nginx's for the same gzip bytes)"
  # One process on SQLite with the bundled decks, as `make serve` runs it.
  start_server lone --data "$work/lone-data"
  ctfo=http://127.0.0.1:${ports[lone]}
  token=$(auth "$ctfo" bench-nginx)
  mkdir -p "$work/www"
  # The full pull, as it is and in gzip (curl without --compressed keeps the bytes sent).
  curl -sf -D "$work/plain.h" -o "$work/www/pull.json" "$ctfo/v1/pull?feed=hot" \
    -H "Authorization: Bearer $token"
  curl -sf -D "$work/gzip.h" -o "$work/www/pull.json.gz" "$ctfo/v1/pull?feed=hot" \
    -H "Authorization: Bearer $token" -H 'Accept-Encoding: gzip'
  [ "$(header Content-Encoding "$work/gzip.h")" = gzip ] || { echo "the gzip pull is not in gzip" >&2; exit 1; }
  etag=$(header ETag "$work/plain.h")
  gzip_etag=$(header ETag "$work/gzip.h")
  # The same pull both ways (serverTime aside), and a pull with cards in it.
  cards=$(python3 - "$work/www/pull.json" "$work/www/pull.json.gz" <<'PY'
import gzip, json, sys
plain = json.load(open(sys.argv[1]))
zipped = json.loads(gzip.decompress(open(sys.argv[2], "rb").read()))
plain.pop("serverTime", None)
zipped.pop("serverTime", None)
print(len(plain["cards"]) if plain == zipped else "differ")
PY
)
  [ "$cards" != differ ] || { echo "the gzip pull is another pull than the plain one" >&2; exit 1; }
  [ "$cards" -gt 0 ] || { echo "the pull has no cards (no bundled decks found)" >&2; exit 1; }
  nginx_port=$(free_port)
  # nginx serves the files as they are: its ETag (etag on, the default, said anyway), and the
  # gzip file with Content-Encoding gzip, as ctfo-server sends it.
  nginx_temp_start "$work/nginx-static" auto "
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/www;
    etag on;
    location = /pull.json { types { } default_type application/json; }
    location = /pull.json.gz { types { } default_type application/json; add_header Content-Encoding gzip; }
  }"
  nginx=http://127.0.0.1:$nginx_port
  for _ in $(seq 100); do curl -sf -o /dev/null "$nginx/pull.json" && break; sleep 0.1; done
  curl -sf -D "$work/nginx.h" -o /dev/null "$nginx/pull.json"
  nginx_etag=$(header ETag "$work/nginx.h")
  curl -sf -o "$work/nginx.gz" "$nginx/pull.json.gz"
  cmp -s "$work/nginx.gz" "$work/www/pull.json.gz" || { echo "nginx sends other gzip bytes" >&2; exit 1; }
  echo "pull: $cards cards, $(stat -c %s "$work/www/pull.json") bytes, $(stat -c %s "$work/www/pull.json.gz") in gzip;" \
    "ETags: ctfo $etag (gzip $gzip_etag), nginx $nginx_etag"

  get_lua "$work/ctfo-304.lua" "/v1/pull?feed=hot" "Authorization: Bearer $token" "If-None-Match: $etag"
  get_lua "$work/nginx-304.lua" "/pull.json" "If-None-Match: $nginx_etag"
  get_lua "$work/ctfo-gzip.lua" "/v1/pull?feed=hot" "Authorization: Bearer $token" "Accept-Encoding: gzip"
  get_lua "$work/nginx-gzip.lua" "/pull.json.gz" "Accept-Encoding: gzip"
  # The answers are what they should be: wrk counts only 400 and above as errors.
  s1=$(status_of "$ctfo/v1/pull?feed=hot" -H "Authorization: Bearer $token" -H "If-None-Match: $etag")
  s2=$(status_of "$nginx/pull.json" -H "If-None-Match: $nginx_etag")
  s3=$(status_of "$ctfo/v1/pull?feed=hot" -H "Authorization: Bearer $token" -H "Accept-Encoding: gzip")
  s4=$(status_of "$nginx/pull.json.gz" -H "Accept-Encoding: gzip")
  echo "answers (curl): ctfo conditional $s1, nginx conditional $s2, ctfo gzip $s3, nginx gzip $s4"
  [ "$s1$s2$s3$s4" = 304304200200 ] || { echo "unexpected answers: the rows would measure errors" >&2; exit 1; }

  : >"$work/rates"
  echo "conditional pulls, 304 (ctfo: the real ETag and a bearer token; nginx: its ETag):"
  for round in $(seq "$rounds"); do
    measure "$ctfo" "$work/ctfo-304.lua" ctfo-304
    measure "$nginx" "$work/nginx-304.lua" nginx-304
  done
  echo "full pulls in gzip (the same bytes from both):"
  for round in $(seq "$rounds"); do
    measure "$ctfo" "$work/ctfo-gzip.lua" ctfo-gzip
    measure "$nginx" "$work/nginx-gzip.lua" nginx-gzip
  done
  summarise ctfo-304:nginx-304:0.5 ctfo-gzip:nginx-gzip:0.5
  echo "ctfo-server's /metrics after the runs:"
  metrics "$ctfo"
  nginx_temp_stop
  stop_server lone
fi

if [[ " $sections " == *" postgres "* ]]; then
  per=10
  echo "== two processes on PostgreSQL beside one on SQLite: wrk -t2 -c32 -d${seconds}s, in turn, $rounds rounds"
  echo "(the same nginx in front of both, keep-alive to the servers; SQLite also without nginx;"
  echo " events: a batch of $per new events a request, events/s = requests/s x $per)"
  pg_temp_start
  store=$(pg_temp_createdb bench)
  timeout 60 "$server" migrate --store "$store" >/dev/null
  start_server pg1 --store "$store"
  start_server pg2 --store "$store"
  start_server lite --data "$work/lite-data"
  pg_port=$(free_port)
  lite_port=$(free_port)
  nginx_temp_start "$work/nginx-proxy" auto "
  upstream pg {
    server 127.0.0.1:${ports[pg1]};
    server 127.0.0.1:${ports[pg2]};
    keepalive 64;
  }
  upstream lite {
    server 127.0.0.1:${ports[lite]};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$pg_port;
    location / { proxy_pass http://pg; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
  }
  server {
    listen 127.0.0.1:$lite_port;
    location / { proxy_pass http://lite; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
  }"
  pg=http://127.0.0.1:$pg_port
  lite_nginx=http://127.0.0.1:$lite_port
  lite=http://127.0.0.1:${ports[lite]}
  for _ in $(seq 100); do curl -sf -o /dev/null "$pg/readyz" && curl -sf -o /dev/null "$lite_nginx/readyz" && break; sleep 0.1; done
  pg_token=$(auth "$pg" bench-pg)
  lite_token=$(auth "$lite" bench-lite)
  pg_etag=$(curl -sf -D - -o /dev/null "$pg/v1/pull?feed=hot" -H "Authorization: Bearer $pg_token" \
    | sed -n 's/^[Ee][Tt]ag: *\(.*\)\r$/\1/p')
  lite_etag=$(curl -sf -D - -o /dev/null "$lite/v1/pull?feed=hot" -H "Authorization: Bearer $lite_token" \
    | sed -n 's/^[Ee][Tt]ag: *\(.*\)\r$/\1/p')
  # Each process of the pair answers 304 to the ETag (nginx takes them in turn).
  answers=$(for _ in 1 2 3 4; do
    status_of "$pg/v1/pull?feed=hot" -H "Authorization: Bearer $pg_token" -H "If-None-Match: $pg_etag"
    echo; done | sort | uniq -c | tr -s ' \n' ' ')
  echo "conditional pulls through nginx to the pair (curl, 4):$answers"
  get_lua "$work/pg-304.lua" "/v1/pull?feed=hot" "Authorization: Bearer $pg_token" "If-None-Match: $pg_etag"
  get_lua "$work/lite-304.lua" "/v1/pull?feed=hot" "Authorization: Bearer $lite_token" "If-None-Match: $lite_etag"
  [ "$(status_of "$lite/v1/pull?feed=hot" -H "Authorization: Bearer $lite_token" -H "If-None-Match: $lite_etag")" = 304 ] \
    || { echo "the SQLite server does not answer 304" >&2; exit 1; }

  : >"$work/rates"
  echo "conditional pulls, 304:"
  for round in $(seq "$rounds"); do
    measure "$pg" "$work/pg-304.lua" postgres-2-nginx-304
    measure "$lite_nginx" "$work/lite-304.lua" sqlite-1-nginx-304
    measure "$lite" "$work/lite-304.lua" sqlite-1-direct-304
  done
  echo "events posted, $per a request:"
  for round in $(seq "$rounds"); do
    events_lua "$work/pg-events.lua" "$pg_token" "$per" "p$round"
    events_lua "$work/lite-events.lua" "$lite_token" "$per" "n$round"
    events_lua "$work/lite-direct-events.lua" "$lite_token" "$per" "d$round"
    measure "$pg" "$work/pg-events.lua" postgres-2-nginx-events
    measure "$lite_nginx" "$work/lite-events.lua" sqlite-1-nginx-events
    measure "$lite" "$work/lite-direct-events.lua" sqlite-1-direct-events
  done
  summarise postgres-2-nginx-304:sqlite-1-nginx-304:- sqlite-1-nginx-304:sqlite-1-direct-304:- \
    postgres-2-nginx-events:sqlite-1-nginx-events:- sqlite-1-nginx-events:sqlite-1-direct-events:-
  # Events a second, and what the stores hold against what wrk saw answered.
  python3 - "$work/rates" "$per" <<'PY'
import collections, statistics, sys
rates, answered = collections.defaultdict(list), collections.Counter()
for line in open(sys.argv[1]):
    label, rate, requests, bad = line.split()
    rates[label].append(float(rate))
    answered[label] += int(requests) - int(bad)
per = int(sys.argv[2])
for label in ("postgres-2-nginx-events", "sqlite-1-nginx-events", "sqlite-1-direct-events"):
    print(f"  {label}: median {statistics.median(rates[label]) * per:,.0f} events/s "
          f"(rounds: {', '.join(f'{r * per:,.0f}' for r in rates[label])})")
print(f"  answered by wrk: PostgreSQL {answered['postgres-2-nginx-events'] * per:,} events, "
      f"SQLite {(answered['sqlite-1-nginx-events'] + answered['sqlite-1-direct-events']) * per:,} events")
PY
  pg_held=$("$server" events --store "$store" | awk '$1 == "bench" { print $2 }')
  lite_held=$("$server" events --data "$work/lite-data" | awk '$1 == "bench" { print $2 }')
  echo "  held by the stores (ctfo-server events): PostgreSQL ${pg_held:-0}, SQLite ${lite_held:-0}"
  echo "  (a store may hold a few more than wrk counted: requests in flight when wrk stops)"
  for name in pg1 pg2 lite; do
    echo "/metrics of $name:"
    metrics "http://127.0.0.1:${ports[$name]}"
  done
  nginx_temp_stop
  for name in pg1 pg2 lite; do stop_server "$name"; done
  pg_temp_stop
fi
