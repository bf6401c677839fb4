#!/usr/bin/env bash
# A MongoDB wire-protocol server for the MongoDB adapter's tests: FerretDB 1.24.2 with its SQLite
# backend, on 127.0.0.1, with its data in a temporary folder.
#
#   scripts/mongo-test-server.sh run <command…>   start it, run the command with MONGO_URL set, stop it
#                                                 (and MONGO_SERVER=ferretdb, for tests of what FerretDB lacks)
#   scripts/mongo-test-server.sh start <dir>      start it with its state in <dir>; prints MONGO_URL=…
#   scripts/mongo-test-server.sh stop <dir>       stop the server started with <dir>, by its process id
#
# FerretDB is built with Go from its module source into a cache folder (TALLY_TOOLS_DIR, default
# ~/.cache/tally-tools) and reused by later runs. Without Go the script says so and exits 3.
set -euo pipefail

FERRETDB_VERSION="v1.24.2"
TOOLS_DIR="${TALLY_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tally-tools}"
# The build's one change, named in its folder so that a build without it is not reused.
BIN_DIR="$TOOLS_DIR/ferretdb-$FERRETDB_VERSION-id-lookup"
FERRETDB="$BIN_DIR/ferretdb"
NO_GO=3

installed() {
  [ -x "$FERRETDB" ] && "$FERRETDB" --version >/dev/null 2>&1
}

install_ferretdb() {
  installed && return 0
  if ! command -v go >/dev/null 2>&1; then
    echo "mongo-test-server: Go is not installed, so FerretDB cannot be built; skipping the MongoDB-backed tests." >&2
    return $NO_GO
  fi
  echo "mongo-test-server: building FerretDB $FERRETDB_VERSION into $BIN_DIR (first run only)…" >&2
  mkdir -p "$BIN_DIR"
  build_from_module_source
}

# Built from a copy of the module rather than with `go install pkg@version`: that asks the module
# proxy for the module's version list, which some proxies refuse, and a module-built FerretDB lacks
# the version file its own build tooling writes, so it panics at start-up.
#
# One change to its SQLite backend: a filter naming an `_id` (a string) among other conditions is
# looked up by that key, its other conditions then checked as before, where FerretDB 1.x scans the
# whole collection unless the `_id` is the filter's only condition. MongoDB uses its `_id` index
# there; without the change every position-guarded write of a read model scans its collection, and
# a suite's time grows with the square of the documents it writes.
build_from_module_source() {
  local work source backend
  work="$(mktemp -d)"
  (cd "$work" && go mod init ferretdb-build >/dev/null 2>&1) || return 1
  source="$(cd "$work" && go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" \
    | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).Dir))')" || return 1
  cp -r "$source" "$work/src" && chmod -R u+w "$work/src" || return 1
  echo "$FERRETDB_VERSION" >"$work/src/build/version/version.txt"
  backend="$work/src/internal/backends/sqlite/collection.go"
  [ "$(grep -c 'if params.Filter.Len() == 1 {' "$backend")" -eq 2 ] || { echo "mongo-test-server: FerretDB's SQLite backend is not as expected; not patching it" >&2; return 1; }
  sed -i 's/if params.Filter.Len() == 1 {/if params.Filter.Len() >= 1 {/' "$backend"
  (cd "$work/src" && GOFLAGS=-mod=mod go build -o "$FERRETDB" ./cmd/ferretdb) >&2 || return 1
  rm -rf "$work"
  installed
}

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

wait_for_ping() {
  local url="$1" pid="$2"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || { echo "mongo-test-server: FerretDB exited during start-up" >&2; return 1; }
    if node -e '
      const { MongoClient } = require("mongodb");
      MongoClient.connect(process.argv[1], { serverSelectionTimeoutMS: 500 })
        .then(async (c) => { await c.db("admin").command({ ping: 1 }); await c.close(); process.exit(0); })
        .catch(() => process.exit(1));
    ' "$url" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "mongo-test-server: FerretDB did not answer a ping within 30 s" >&2
  return 1
}

start() {
  local dir="$1"
  install_ferretdb || return $?
  mkdir -p "$dir/data"
  local port debug_port
  port="$(free_port)"
  debug_port="$(free_port)"
  # Without fsync: the server's data is thrown away after the run, and a commit that waits for the disk makes every read-model write dearer.
  "$FERRETDB" --handler=sqlite --sqlite-url="file:$dir/data/?_pragma=synchronous(off)" --state-dir="$dir" \
    --listen-addr="127.0.0.1:$port" --debug-addr="127.0.0.1:$debug_port" \
    --telemetry=disable --log-level=warn >"$dir/ferretdb.log" 2>&1 &
  echo $! >"$dir/ferretdb.pid"
  local url="mongodb://127.0.0.1:$port/"
  wait_for_ping "$url" "$(cat "$dir/ferretdb.pid")" || { stop "$dir"; cat "$dir/ferretdb.log" >&2; return 1; }
  echo "$url" >"$dir/mongo-url"
  echo "MONGO_URL=$url"
}

stop() {
  local dir="$1"
  [ -f "$dir/ferretdb.pid" ] || return 0
  local pid
  pid="$(cat "$dir/ferretdb.pid")"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$dir/ferretdb.pid"
}

RUN_DIR=""

run() {
  local status=0
  RUN_DIR="$(mktemp -d)"
  trap 'stop "$RUN_DIR"; rm -rf "$RUN_DIR"' EXIT
  start "$RUN_DIR" >/dev/null || return $?
  echo "mongo-test-server: FerretDB $FERRETDB_VERSION at $(cat "$RUN_DIR/mongo-url")" >&2
  MONGO_SERVER=ferretdb MONGO_URL="$(cat "$RUN_DIR/mongo-url")" "$@" || status=$?
  return $status
}

case "${1:-}" in
  run) shift; run "$@" ;;
  start) start "${2:?usage: start <dir>}" ;;
  stop) stop "${2:?usage: stop <dir>}" ;;
  *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
