# Shared by the HTTP benchmark scripts (bench-http, bench-feed, bench-kudos): tools, the nginx static-file
# reference, wrk runs and medians. Every server runs alone on CPU 0 and wrk on CPU 1; see each script.

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
