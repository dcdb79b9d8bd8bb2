#!/usr/bin/env bash
# Writes linker-symbol-order/hot-functions.txt: the functions of the release binary that run when it starts on a tree of
# 10 000 exchanges, serves static answers, errors, the admin API and the example tree's scripts, then stops.
# The linker places them together at the start of the code (RELEASE_FLAGS in the Makefile), so the few
# pages a serving daemon touches are not spread over the whole binary: the kernel maps a binary's code in
# 64 KiB blocks around each page touched, and scattered code made idle memory 2 MiB larger.
# A name the binary no longer has is skipped by the linker, and a function missing from the list only
# stays where it was: rerun this (`make hot-functions`) after a change to the serving path.
# Usage: linker-symbol-order/hot-functions.sh BINARY   (from the repository root; needs valgrind, python3, curl)
set -euo pipefail
binary=${1:?usage: linker-symbol-order/hot-functions.sh BINARY}
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# serve NAME ARGUMENTS...: runs the binary under callgrind until it answers, sets $url.
serve() {
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.callgrind" "$binary" run --port 0 --log-level ERROR "$@" \
    > "$work/$name.out" 2> "$work/$name.err" &
  server=$!
  for _ in $(seq 1 1200); do grep -q 'listening on' "$work/$name.out" && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  url=$(sed -n 's/^espressomartini listening on //p' "$work/$name.out")
  [ -n "$url" ] || { echo "hot-functions: $name was not served:"; cat "$work/$name.err"; exit 1; }
}
stop() {
  kill -INT "$server"
  wait "$server" || true
  server=""
}
get() { curl -s -o /dev/null --max-time 30 "$@"; }

python3 bench/make_tree.py --exchanges 10000 --plain --out "$work/tree" --blob "$work/1MiB.bin" > /dev/null
serve tree --configuration "$work/tree/configuration.json"
sleep 5   # the tree watcher sets up after the first answer
for _ in $(seq 1 50); do get "$url/api/v1/hello"; done
get "$url/api/v1/users/7/profile"; get "$url/api/v1/files/a/b"; get "$url/nowhere"; get -X DELETE "$url/api/v1/hello"
get -I "$url/api/v1/hello"; get "$url/__espressomartini/health"; get "$url/__espressomartini/requests"
stop

serve example
for _ in $(seq 1 5); do get "$url/api/v1/products/1"; get "$url/api/v1/me"; done
get --json '{"username":"ada","password":"espresso"}' "$url/api/v1/session"
stop

# Every function either run ran, by its symbol name, that the binary defines.
nm --defined-only "$binary" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u > "$work/defined"
sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$work"/*.callgrind | sort -u | comm -12 - "$work/defined" > linker-symbol-order/hot-functions.txt
echo "hot-functions: $(wc -l < linker-symbol-order/hot-functions.txt) functions in linker-symbol-order/hot-functions.txt"
