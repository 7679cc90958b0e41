# Sourced by the benchmark scripts: starts the release server on a free port of 127.0.0.1 and
# reads the address it chose from its own log, so a script always measures the server it started
# (never another one left on a fixed port). Needs BIN (the binary) and WORK (a scratch directory).
#
#   start_server LOG_FILE [serve flags...]   sets SERVER (its pid) and ADDR (HOST:PORT)

start_server() {
  local log=$1
  shift
  NO_COLOR=1 "$BIN" serve --addr 127.0.0.1:0 "$@" >"$log" 2>&1 &
  SERVER=$!
  ADDR=
  for _ in $(seq 300); do
    ADDR=$(sed -n 's|.*listening on http://\([0-9.]*:[0-9]*\).*|\1|p' "$log" | head -n 1)
    [ -n "$ADDR" ] && break
    if ! kill -0 "$SERVER" 2>/dev/null; then
      cat "$log" >&2
      echo "error: the server stopped before it listened" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [ -z "$ADDR" ]; then
    echo "error: the server did not say where it listens" >&2
    exit 1
  fi
  # The port is the one our child printed; make sure it is our child that answers there.
  for _ in $(seq 100); do
    "$BIN" health --addr "$ADDR" >/dev/null 2>&1 && break
    sleep 0.1
  done
  "$BIN" health --addr "$ADDR" >/dev/null
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "error: the server at $ADDR is not the one this script started" >&2
    exit 1
  fi
  echo "server $SERVER on $ADDR"
}
