# Shared by the HTTP benchmark scripts (bench-http, bench-feed, bench-kudos, bench-scale): tools, the nginx
# static-file reference, Hummingbird alone (the floor), the benchmark PostgreSQL, wrk runs and medians. Every server runs alone on CPU 0 and wrk on CPU 1; see each script.

bench_install() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v nginx >/dev/null || missing+=(nginx-light)
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} from Debian's packages" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

bench_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# nginx with one worker serving a 1 KB static file: the reference for a request's cost. Sets nginx_url.
bench_nginx_prepare() {
  local dir=$1
  nginx_port=$(bench_free_port)
  mkdir -p "$dir/nginx/www"
  head -c 1024 /dev/urandom | base64 -w 0 | head -c 1024 >"$dir/nginx/www/static.txt"
  chmod -R a+rX "$dir"  # nginx's worker runs as nobody; a 403 would be measured as fast as a file
  cat >"$dir/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/nginx/body;
  server { listen 127.0.0.1:$nginx_port; root $dir/nginx/www; }
}
CONF
  nginx_url="http://127.0.0.1:$nginx_port/static.txt"
}

bench_nginx_start() {
  local dir=$1
  taskset -c 0 nginx -c "$dir/nginx/nginx.conf" -p "$dir/nginx" >>"$dir/nginx/out.log" 2>&1 &
  bench_pid=$!
  bench_wait_for "$nginx_url"
}

bench_wait_for() {
  for _ in $(seq 300); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done
  echo "$1 did not answer" >&2
  return 1
}

bench_stop() {
  if [ -n "${bench_pid:-}" ]; then
    kill "$bench_pid" 2>/dev/null || true
    wait "$bench_pid" 2>/dev/null || true
    bench_pid=
  fi
}

# bench_wrk URL [LUA_SCRIPT]: wrk on CPU 1 (one thread, $CONNECTIONS connections, $DURATION s). Sets rps, p99
# (milliseconds) and bad (non-2xx answers plus socket errors).
bench_wrk() {
  local url=$1 script=${2:-} out
  out=$(mktemp)
  local args=(-t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency)
  [ -n "$script" ] && args+=(-s "$script")
  taskset -c 1 wrk "${args[@]}" "$url" >"$out"
  rps=$(awk '/Requests\/sec/ {print $2}' "$out")
  p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; print v}' "$out")
  bad=$(awk '/Non-2xx/ {n+=$NF} /Socket errors/ {gsub(/,/,""); n+=$4+$6+$8+$10} END {print n+0}' "$out")
  rm -f "$out"
}

bench_median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
bench_range() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "–" hi}'; }
bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN {r = a / b; printf (r < 0.1 ? "%.3f" : "%.2f"), r}'; }

# Hummingbird alone (`spotter bench http-floor`, the same release build: one route, no middleware, no
# database) on CPU 0, driven like the server under test: the floor every Spotter request is compared with.
# bench_floor WORK_DIR SPOTTER_BINARY sets floor_rps and floor_p99.
bench_floor() {
  local dir=$1 binary=$2 port
  port=$(bench_free_port)
  taskset -c 0 "$binary" bench http-floor --port "$port" >>"$dir/floor.log" 2>&1 &
  bench_pid=$!
  bench_wait_for "http://127.0.0.1:$port/healthz"
  DURATION=3 bench_wrk "http://127.0.0.1:$port/healthz"
  bench_wrk "http://127.0.0.1:$port/healthz"
  bench_stop
  floor_rps=$rps
  floor_p99=$p99
}

# A PostgreSQL cluster kept in $BENCH_DATA/pg, its server pinned to CPU 0 (every backend inherits that), with
# the pgbench reference database and the databases named in the arguments. fsync is off: the benchmarks read,
# and seeds load faster. Needs scripts/lib/postgres.sh. Sets pg_port and pg_url (for the first database).
bench_postgres_start() {
  local bin
  bin=$(pg_bin_dir)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed (scripts/test installs it)" >&2; exit 1; }
  if [ ! -d "$BENCH_DATA/pg" ]; then
    mkdir -p "$BENCH_DATA/pg"
    [ "$(id -u)" = 0 ] && chown postgres "$BENCH_DATA/pg"
    as_postgres "$bin/initdb" -D "$BENCH_DATA/pg" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
  fi
  # A cluster left running by an interrupted run is stopped: it listens on a port nobody knows any more.
  as_postgres "$bin/pg_ctl" -D "$BENCH_DATA/pg" status >/dev/null 2>&1 \
    && as_postgres "$bin/pg_ctl" -D "$BENCH_DATA/pg" -m fast -w stop >/dev/null
  pg_port=$(bench_free_port)
  as_postgres taskset -c 0 "$bin/pg_ctl" -D "$BENCH_DATA/pg" -l "$BENCH_DATA/pg/server.log" -w \
    -o "-p $pg_port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  bench_pg_started=1
  for db in "$@" pgbench; do
    as_postgres "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" \
      | grep -q 1 || as_postgres "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres "$db"
  done
  for db in "$@"; do
    as_postgres "$bin/psql" -q -h 127.0.0.1 -p "$pg_port" -U postgres -d "$db" \
      -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public" >/dev/null
  done
  if ! as_postgres "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d pgbench -tAc "SELECT 1 FROM pgbench_branches LIMIT 1" >/dev/null 2>&1; then
    echo "pgbench: initialising scale 10 (1,000,000 accounts)" >&2
    as_postgres "$bin/pgbench" -i -q -s 10 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench >/dev/null 2>&1
  fi
  pg_url="postgres://postgres@127.0.0.1:$pg_port/$1"
}

bench_postgres_stop() {
  if [ -n "${bench_pg_started:-}" ]; then
    as_postgres "$(pg_bin_dir)/pg_ctl" -D "$BENCH_DATA/pg" -m fast -w stop >/dev/null 2>&1 || true
    bench_pg_started=
  fi
}
