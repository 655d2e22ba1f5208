# Starts and stops a throwaway PostgreSQL cluster for tests, as the unprivileged `postgres` user, on a free
# loopback port. Sourced by scripts/test; sets SPOTTER_TEST_DATABASE_URL.

pg_bin_dir() {
  local initdb
  initdb=$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$initdb" ] && dirname "$(readlink -f "$initdb")"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local bin
  bin=$(pg_bin_dir)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed" >&2; return 1; }
  PG_DIR=$(mktemp -d /tmp/spotter-pg.XXXXXX)
  PG_PORT=$(free_port)
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; fi
  as_postgres "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust --no-sync -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$PG_DIR/server.log" >&2; return 1; }
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres spotter_test
  # Search needs pg_trgm; a production database has it before Spotter starts, and so does this one.
  as_postgres "$bin/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d spotter_test \
    -c "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public" >/dev/null
  export SPOTTER_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/spotter_test"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  local bin
  bin=$(pg_bin_dir)
  as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=
}
