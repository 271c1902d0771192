# A PostgreSQL 15 of a script's own, as the tests start one (Tests/CTFOServerTests/PostgresServer.swift):
# initdb in a new temporary folder, listening only on a Unix socket in that folder, run as the
# postgres user when the script runs as root (PostgreSQL refuses root). Sourced, not run:
#   . scripts/postgres-temp.sh
#   pg_temp_start                  # sets PG_TEMP (the folder, also the socket's)
#   url=$(pg_temp_createdb NAME)   # a new database; its URL for ctfo-server --store
#   pg_temp_psql NAME -c 'SELECT 1'
#   pg_temp_stop                   # stops the server, removes the folder (safe to call twice)
# The caller's EXIT trap should call pg_temp_stop.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_TEMP=

# Runs one of PostgreSQL's programs as the server's owner: the postgres user when root.
_pg_temp_as_server() {
  if [ "$(id -u)" -eq 0 ]; then
    /usr/sbin/runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_temp_start() {
  [ -x "$PG_BIN/initdb" ] || {
    echo "no $PG_BIN/initdb: PostgreSQL 15 is needed (scripts/install-deps.sh installs postgresql-15)" >&2
    return 1
  }
  PG_TEMP=$(mktemp -d /tmp/ctfo-pg.XXXXXX)
  if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$PG_TEMP"; fi
  # fsync off and no initdb sync: a throwaway cluster; what is measured is the server's
  # work, not this disk's flushes.
  _pg_temp_as_server "$PG_BIN/initdb" -D "$PG_TEMP/data" -U ctfo --auth=trust -E UTF8 --no-sync \
    >"$PG_TEMP/initdb.log" 2>&1 || { cat "$PG_TEMP/initdb.log" >&2; return 1; }
  # Connections: two servers' pools, psql, and headroom.
  _pg_temp_as_server "$PG_BIN/pg_ctl" -D "$PG_TEMP/data" -l "$PG_TEMP/log" -w -t 60 \
    -o "-k $PG_TEMP -c listen_addresses='' -c fsync=off -c max_connections=200" start \
    >"$PG_TEMP/pg_ctl.log" 2>&1 || { cat "$PG_TEMP/pg_ctl.log" "$PG_TEMP/log" >&2; return 1; }
}

# Creates the database NAME and prints its URL (the socket folder written with %2F).
pg_temp_createdb() {
  "$PG_BIN/createdb" -h "$PG_TEMP" -U ctfo "$1" || return 1
  echo "postgres://ctfo@${PG_TEMP//\//%2F}:5432/$1"
}

# psql on the database NAME through the socket, stopping at the first error.
pg_temp_psql() {
  local db=$1
  shift
  "$PG_BIN/psql" -h "$PG_TEMP" -U ctfo -d "$db" -v ON_ERROR_STOP=1 -X -q "$@"
}

pg_temp_stop() {
  [ -n "$PG_TEMP" ] && [ -d "$PG_TEMP" ] || return 0
  _pg_temp_as_server "$PG_BIN/pg_ctl" -D "$PG_TEMP/data" -m immediate -w -t 30 stop \
    >/dev/null 2>&1 || true
  rm -rf "$PG_TEMP"
  PG_TEMP=
}
