#!/usr/bin/env bash
# make bench: espressomartini beside a bare libmicrohttpd server (bench/ceiling.c), on this machine,
# over 127.0.0.1 only. `make bench` installs what is missing and builds first; run directly, it expects
# .build/release/espressomartini and wrk, gcc, libmicrohttpd-dev, python3 and curl.
#
#   QUICK=1       1 round of 2 slices (about four minutes)
#   ROUNDS=3      rounds; in each, every comparison is measured anew
#   SLICES=4      wrk loads per server and comparison in a round, alternating between the servers compared
#                 (A B, B A, A B, B A), so that the machine's drift weighs on each side alike
#   DURATION=2    seconds per slice
#   BENCH_DIR=/tmp/espressomartini-bench   trees, the ceiling binary, server logs (never committed)
#   BINARY=.build/release/espressomartini
#   BASELINE_BINARY=   another build to measure beside BINARY (`make bench BASELINE=REF` builds REF's): both
#                 serve a 10 000-exchange tree without variants, templates or scripts (any version loads it),
#                 for start-up, idle memory and the small JSON in alternating slices; BASELINE names it
#
# Prints a Markdown table and writes it, with every raw number, to bench/results/<date>.md (+ .jsonl).
set -uo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
BINARY=${BINARY:-$REPO/.build/release/espressomartini}
WORK=${BENCH_DIR:-/tmp/espressomartini-bench}
if [[ ${QUICK:-0} != 0 && -n ${QUICK:-} ]]; then QUICK=1; else QUICK=0; fi
ROUNDS_GIVEN=${ROUNDS:-} SLICES_GIVEN=${SLICES:-} DURATION_GIVEN=${DURATION:-}
if [[ $QUICK == 1 ]]; then ROUNDS=${ROUNDS:-1}; SLICES=${SLICES:-2}; else ROUNDS=${ROUNDS:-3}; SLICES=${SLICES:-4}; fi
DURATION=${DURATION:-2}
THREADS=2 CONNECTIONS=64 FILE_CONNECTIONS=32 EXCHANGES=10000
# The few-connections loads (the probes ending in 2): where nothing batches, a turn of a server's loop per request.
FEW_CONNECTIONS=2
IMPORT_RUNS=3   # imports of each description per round
START_LIMIT=60   # seconds a server may take to answer its first 200
STAMP=$(date +%Y-%m-%d-%H%M%S)
RESULTS=$HERE/results
RAW=$WORK/raw-$STAMP.jsonl

say() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
[[ $SLICES =~ ^[1-9][0-9]*$ ]] || die "SLICES must be a positive integer, not '$SLICES'"
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || die "DURATION must be a whole number of seconds, not '$DURATION'"
for tool in wrk gcc python3 curl openssl; do
  command -v "$tool" > /dev/null || die "$tool is missing: run 'make bench', which installs it"
done
[[ -x $BINARY ]] || die "$BINARY is missing: run 'make build' (or 'make bench', which builds it)"
BASELINE_BINARY=${BASELINE_BINARY:-}
BASELINE=${BASELINE:-baseline}
[[ -z $BASELINE_BINARY || -x $BASELINE_BINARY ]] || die "$BASELINE_BINARY (the baseline) is missing"

# ------------------------------------------------------------------------------------------- processes
STARTED=()   # every process this script started and has not reaped yet; all stopped on exit

forget() {  # forget PID...: reaped, so never to be signalled again (the number may be reused)
  local keep=() pid gone
  for pid in "${STARTED[@]}"; do
    for gone in "$@"; do [[ $pid == "$gone" ]] && continue 2; done
    keep+=("$pid")
  done
  STARTED=("${keep[@]}")
}

stop_pids() {  # SIGTERM, up to 5 s to exit, then SIGKILL; only PIDs this script started
  local pid i
  for pid in "$@"; do kill -TERM "$pid" 2> /dev/null; done
  for pid in "$@"; do
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
  done
  forget "$@"
}
trap 'stop_pids "${STARTED[@]}"; [[ -n ${RECORDED_SHM:-} ]] && rm -rf "$RECORDED_SHM"' EXIT
trap 'say "interrupted"; exit 130' INT TERM

declare -A PID=() PORT=() LOG=() SCHEME=()   # SCHEME: https for the servers of the HTTPS comparison
SERVERS=()       # the servers of the current round, in start order
STARTUP_S="" FAILURE=""   # set by start_server

alive() { [[ -n ${PID[$1]:-} ]] && kill -0 "${PID[$1]}" 2> /dev/null; }

log_tail() { tail -c 400 "${LOG[$1]}" 2> /dev/null | tr '\n' ' '; }

# start_server NAME LOGFILE COMMAND...: starts COMMAND (which must listen on ${PORT[NAME]}), waits, bounded,
# for its first 200 on /api/v1/hello, and sets STARTUP_S to the seconds from spawn to that answer. A poller
# started before the server notes the time, so that its own start-up is not counted. On failure, returns 1
# with the reason in FAILURE. Must run in this shell (never inside $(...)): it records the PIDs.
start_server() {
  local name=$1 log=$2 ready=$WORK/logs/$1.ready poller i result
  shift 2
  LOG[$name]=$log
  rm -f "$ready"
  python3 "$HERE/first_200.py" "$(url "$name" hello)" "$ready" "$START_LIMIT" &
  poller=$!
  STARTED+=("$poller")
  for ((i = 0; i < 1000; i++)); do [[ -s $ready ]] && break; sleep 0.01; done
  if [[ $(head -1 "$ready" 2> /dev/null) != polling ]]; then
    stop_pids "$poller"
    if [[ $(head -1 "$ready" 2> /dev/null) == busy ]]; then
      FAILURE="port ${PORT[$name]} of 127.0.0.1 is already in use by another program (rerun to pick other ports)"
    else
      FAILURE="the readiness poller did not start"
    fi
    return 1
  fi
  local t0=$EPOCHREALTIME
  "$@" > "$log" 2>&1 &
  PID[$name]=$!
  STARTED+=("$!")
  SERVERS+=("$name")
  # Wait for the poller (it gives up by itself after START_LIMIT) or the server, whichever ends first,
  # without a polling loop: forking `sleep` every few milliseconds took CPU from the start-up measured.
  wait -n "$poller" "${PID[$name]}" 2> /dev/null
  if kill -0 "$poller" 2> /dev/null; then
    stop_pids "$poller"
    FAILURE="$name exited before answering (port ${PORT[$name]}): $(log_tail "$name")"
    return 1
  fi
  wait "$poller" 2> /dev/null
  forget "$poller"
  result=$(sed -n 2p "$ready")
  if [[ ! $result =~ ^[0-9.]+$ ]]; then
    FAILURE="$name gave no 200 on $(url "$name" hello) within $START_LIMIT s: $(log_tail "$name")"
    return 1
  fi
  STARTUP_S=$(awk -v a="$result" -v b="$t0" 'BEGIN { printf "%.4f", a - b }')
}

stop_round_servers() {
  local name pids=()
  for name in "${SERVERS[@]}"; do pids+=("${PID[$name]}"); done
  [[ ${#pids[@]} -gt 0 ]] && stop_pids "${pids[@]}"
  SERVERS=()
}

cpu_ticks() {  # utime + stime of the process (every thread) and of its children (nginx's workers), in clock ticks
  local pid stat fields total=0
  for pid in "$1" $(cat /proc/"$1"/task/*/children 2> /dev/null); do
    { stat=$(< "/proc/$pid/stat"); } 2> /dev/null || continue
    read -ra fields <<< "${stat##*) }"
    total=$((total + fields[11] + fields[12]))
  done
  echo "$total"
}

# busy_ticks: the clock ticks the machine's cores, all together, have spent working (every process: the
# client, the upstream, the server; user, nice, system, irq and softirq time from /proc/stat).
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat; }

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2> /dev/null; }

threads() { ls "/proc/$1/task" 2> /dev/null | wc -l; }

# ------------------------------------------------------------------------------------------- records
record() { echo "$1" >> "$RAW"; }
clean() { printf '%s' "$*" | tr -d '"\\' | tr '\n\t' '  ' | cut -c1-300; }
record_value() { record "{\"round\":$1,\"server\":\"$2\",\"metric\":\"$3\",\"value\":${4:-null}}"; }
record_failure() { record "{\"round\":$1,\"server\":\"$2\",\"probe\":\"$3\",\"failed\":\"$(clean "$4")\"}"; }

declare -A PROBES=(
  [hello]=/api/v1/hello
  [deep]=/api/v2/svc5/deep/l1/l2/l3/l4/l5/l6/target
  [id]=/api/v1/users/12345/profile
  [glob]=/api/v1/files/a/b/c.txt
  [file]=/api/v1/big
  [static]=/api/v1/hello                # hello again, the reference of the decision comparison
  [variants]="/api/v1/variants?page=2"  # the last of 4 variants, by a header and a query parameter
  [json]=/api/v1/orders                 # a JSON Pointer condition on a POSTed 1 KiB body
  [template]="/api/v1/greetings/42?name=espresso"  # a templated JSON body: path parameter, query parameter, header
  [sessions]=/api/v1/hello              # hello with a session header, 1000 sessions in rotation
  [cors]=/api/v1/hello                  # hello with an Origin, to a server with "cors": true
  [plain]=/api/v1/hello                 # hello on the tree without part-two keys, this build vs the baseline
  [hello2]=/api/v1/hello                # hello with FEW_CONNECTIONS connections
  [plain2]=/api/v1/hello                # plain with FEW_CONNECTIONS connections
  [tls]=/api/v1/hello                   # hello over HTTPS
  [script]=/api/v1/scripted/42          # a trivial script
  [scriptjson]=/api/v1/scripted-orders  # a script reading a POSTed 2 KiB JSON body
  [proxied]=/api/v1/proxied/hello       # not in the tree: forwarded to the upstream (a ceiling)
  [proxied2]=/api/v1/proxied/hello      # the same with FEW_CONNECTIONS connections
  [distinct]=/api/v1/proxied            # forwarded, every request to a path of its own (WRK_DISTINCT)
  [recorded]=/api/v1/recorded           # forwarded and recorded, every request to a path of its own
  [runtime]=/api/v1/runtime-hello       # hello's file from a runtime exchange (bench/add_runtime_exchanges.py)
)
# Probes whose every request goes to a path of its own (wrk_summary.lua's WRK_DISTINCT).
declare -A PROBE_DISTINCT=([distinct]=1 [recorded]=1)
# Probes whose wrk load rotates session headers (WRK_SESSIONS for wrk_summary.lua): how many sessions.
declare -A PROBE_SESSIONS=([sessions]=1000)
# What a probe sends besides GET PATH (a header; a body, POSTed), and the file its answer must equal:
# the variant meant to answer (bench/make_tree.py writes them).
declare -A PROBE_HEADER=([variants]="X-Client: bench" [json]="Content-Type: application/json" [template]="X-Client: bench" [cors]="Origin: http://bench.test:3000" [scriptjson]="Content-Type: application/json")
declare -A PROBE_BODY=([json]=$WORK/tree-10/order.json [scriptjson]=$WORK/tree-10/order-2k.json)
declare -A PROBE_EXPECTED=(
  [variants]=$WORK/tree-10/network-exchanges/api/v1/variants/GET/variant-4.json
  [json]=$WORK/tree-10/network-exchanges/api/v1/orders/POST/gold.json
  [template]=$WORK/tree-10/greeting.json
  [script]=$WORK/tree-10/scripted.json
  [scriptjson]=$WORK/tree-10/scripted-order.json
  [proxied]=$WORK/tree-10/network-exchanges/api/v1/hello/GET/response.json
  [proxied2]=$WORK/tree-10/network-exchanges/api/v1/hello/GET/response.json
  [runtime]=$WORK/tree-10/network-exchanges/api/v1/hello/GET/response.json
)

# url SERVER PROBE: where the probe goes on that server.
url() { echo "${SCHEME[$1]:-http}://127.0.0.1:${PORT[$1]}${PROBES[$2]}"; }

# probe_options PROBE: sets WRK_OPTIONS (before the URL), WRK_ARGUMENTS (after it, for wrk_summary.lua),
# WRK_SESSIONS (exported: the session headers wrk_summary.lua rotates, empty for none) and CURL_OPTIONS to send
# the probe's header and body.
probe_options() {
  WRK_OPTIONS=() WRK_ARGUMENTS=() CURL_OPTIONS=()
  export WRK_SESSIONS=${PROBE_SESSIONS[$1]:-}
  export WRK_DISTINCT=""
  [[ -n ${PROBE_DISTINCT[$1]:-} ]] && WRK_DISTINCT=${DISTINCT_PREFIX:-check-$RANDOM}
  [[ -n $WRK_SESSIONS ]] && CURL_OPTIONS+=(-H "X-Espressomartini-Session: bench-1")
  if [[ -n ${PROBE_HEADER[$1]:-} ]]; then
    WRK_OPTIONS+=(-H "${PROBE_HEADER[$1]}")
    CURL_OPTIONS+=(-H "${PROBE_HEADER[$1]}")
  fi
  if [[ -n ${PROBE_BODY[$1]:-} ]]; then
    WRK_ARGUMENTS+=(-- POST "${PROBE_BODY[$1]}")
    CURL_OPTIONS+=(--data-binary "@${PROBE_BODY[$1]}")
  fi
}

# check_probe SERVER PROBE: one request as the load sends it; succeeds when the answer is 200 (and, for a
# probe with an expected answer, that answer byte for byte), else prints why and fails.
check_probe() {
  local name=$1 probe=$2 answer=$WORK/logs/check-$1-$2.body code
  probe_options "$probe"
  [[ ${SCHEME[$name]:-http} == https ]] && CURL_OPTIONS+=(--cacert "$WORK/tls/cert.pem")
  code=$(curl -s -o "$answer" -m 10 -w '%{http_code}' "${CURL_OPTIONS[@]}" "$(url "$name" "$probe")")
  if [[ $code != 200 ]]; then
    echo "HTTP $code for ${PROBES[$probe]}: $(head -c 300 "$answer" 2> /dev/null)"
    return 1
  fi
  if [[ -n ${PROBE_EXPECTED[$probe]:-} ]] && ! cmp -s "$answer" "${PROBE_EXPECTED[$probe]}"; then
    echo "${PROBES[$probe]} was not answered by the variant meant to ($(basename "${PROBE_EXPECTED[$probe]}")): $(head -c 300 "$answer")"
    return 1
  fi
}

# load ROUND SLICE SERVER PROBE CONNECTIONS: one wrk run, its summary and the server's CPU time recorded.
load() {
  local round=$1 slice=$2 name=$3 probe=$4 connections=$5 url before after busy_before busy_after output summary
  url=$(url "$name" "$probe")
  if ! alive "$name"; then record_failure "$round" "$name" "$probe" "the server had exited: $(log_tail "$name")"; return; fi
  DISTINCT_PREFIX="r$round-s$slice-$name" probe_options "$probe"
  local written_before=0
  [[ $probe == recorded ]] && written_before=$(recorded_count "$name" "$round")
  before=$(cpu_ticks "${PID[$name]}") busy_before=$(busy_ticks)
  output=$(timeout $((DURATION + 30)) wrk -t"$THREADS" -c"$connections" -d"${DURATION}s" --timeout 10s --latency \
    "${WRK_OPTIONS[@]}" -s "$HERE/wrk_summary.lua" "$url" "${WRK_ARGUMENTS[@]}" 2>&1)
  after=$(cpu_ticks "${PID[$name]}") busy_after=$(busy_ticks)
  summary=$(sed -n 's/^SUMMARY //p' <<< "$output")
  if [[ -z $summary ]]; then record_failure "$round" "$name" "$probe" "wrk: $(tail -c 200 <<< "$output")"; return; fi
  if ! alive "$name"; then record_failure "$round" "$name" "$probe" "the server exited during the load: $(log_tail "$name")"; return; fi
  record "${summary%\}},\"round\":$round,\"slice\":$slice,\"server\":\"$name\",\"probe\":\"$probe\",\"connections\":$connections,\"cpu_ticks\":$((after - before)),\"busy_ticks\":$((busy_after - busy_before)),\"clk_tck\":$(getconf CLK_TCK)}"
  [[ $probe == recorded ]] && drain_recording "$round" "$slice" "$name" "$written_before" "$summary"
  say "  $name $probe ($slice/$SLICES): $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%.0f req/s, %.1f MiB/s, p50 %.2f ms, p99 %.2f ms%s" % (d["rps"], d["mib_s"], d["p50_us"]/1000, d["p99_us"]/1000, "" if not sum(d["errors"].values()) else ", errors %s" % d["errors"]))' "$summary")"
}

# Where `record` writes, a folder per round, removed only when the bench ends: on ext4, creating thousands of
# files right after deleting thousands is several times slower, which would measure the file system.
RECORDED=$WORK/recorded-$STAMP
# The same into memory (tmpfs), when /dev/shm is there: what recording costs without this machine's disk.
RECORDED_SHM=""
[[ -d /dev/shm && -w /dev/shm ]] && RECORDED_SHM=/dev/shm/espressomartini-bench-recorded-$STAMP
declare -A RECORD_FOLDER=([em-record]=$RECORDED [em-record-shm]=$RECORDED_SHM)

# recorded_count SERVER ROUND: the exchanges the recorder of the round has written so far (its method folders).
recorded_count() { find "${RECORD_FOLDER[$1]}/$2" -name configuration.json 2> /dev/null | wc -l; }

# drain_recording ROUND SLICE SERVER BEFORE SUMMARY: after a recording load, waits (at most 120 s) until every
# request of it is written (BEFORE exchanges were before it; each request is a new one), and records how many
# were written and how long that took beyond the load: recording counts until its writes are done.
drain_recording() {
  local round=$1 slice=$2 name=$3 before=$4 requests written start=$EPOCHREALTIME i
  requests=$(sed -n 's/.*"requests":\([0-9]*\).*/\1/p' <<< "$5")
  for ((i = 0; i < 1200; i++)); do
    written=$(($(recorded_count "$name" "$round") - before))
    ((written >= requests)) && break
    sleep 0.1
  done
  record "{\"round\":$round,\"slice\":$slice,\"server\":\"$name\",\"drain\":{\"written\":$written,\"requests\":$requests,\"seconds\":$(awk -v a="$EPOCHREALTIME" -v b="$start" 'BEGIN { printf "%.3f", a - b }')}}"
}

# compare_loads ROUND CONNECTIONS SERVER:PROBE...: the loads under the same wrk settings, in SLICES slices
# each, taking turns: in the given order, then reversed, and so on (A B, B A, ...). Sequential runs of several
# seconds each let the machine's slow swings (other virtual machines on the host) fall on one side;
# alternating slices spread them over all. A load whose route does not answer right is left out, with the
# reason.
compare_loads() {
  local round=$1 connections=$2 entry name probe reason slice entries=() order
  shift 2
  for entry in "$@"; do
    name=${entry%%:*} probe=${entry#*:}
    if ! alive "$name"; then record_failure "$round" "$name" "$probe" "the server had exited: $(log_tail "$name")"; continue; fi
    if ! reason=$(check_probe "$name" "$probe"); then record_failure "$round" "$name" "$probe" "$reason"; continue; fi
    entries+=("$entry")
  done
  for ((slice = 1; slice <= SLICES; slice++)); do
    if ((slice % 2)); then order=("${entries[@]}"); else mapfile -t order < <(printf '%s\n' "${entries[@]}" | tac); fi
    for entry in "${order[@]}"; do load "$round" "$slice" "${entry%%:*}" "${entry#*:}" "$connections"; done
  done
}

# compare ROUND PROBE CONNECTIONS SERVER...: the servers under the same load, alternating (compare_loads).
compare() {
  local round=$1 probe=$2 connections=$3 name entries=()
  shift 3
  for name in "$@"; do entries+=("$name:$probe"); done
  compare_loads "$round" "$connections" "${entries[@]}"
}

warm_up() {  # warm_up SERVER PROBE: one unrecorded second of load
  probe_options "$2"
  alive "$1" && timeout 20 wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "${WRK_OPTIONS[@]}" -s "$HERE/wrk_summary.lua" \
    "$(url "$1" "$2")" "${WRK_ARGUMENTS[@]}" > /dev/null 2>&1
}

# runaway_check ROUND: a server of its own, nothing else running, gets three calls of a script that allocates
# without end; each must be a 500 naming script_memory. Records its resident memory's peak (VmHWM) and its
# resident memory 2 s after the third answer, each above where it was before the first call.
runaway_check() {
  local round=$1 start code i answer=$WORK/logs/check-runaway.body
  if ! start_server em-runaway "$WORK/logs/em-runaway.log" \
      "$BINARY" run --configuration "$WORK/tree-runaway/configuration.json" --port "${PORT[em-runaway]}"; then
    record_failure "$round" em-runaway runaway "$FAILURE"
    return
  fi
  sleep 1   # the file watcher is set up after the first answer
  start=$(rss_kib "${PID[em-runaway]}")
  for i in 1 2 3; do
    code=$(curl -s -o "$answer" -m 30 -w '%{http_code}' "http://127.0.0.1:${PORT[em-runaway]}/api/v1/runaway")
    if [[ $code != 500 ]] || ! grep -q 'used more memory than script_memory' "$answer"; then
      record_failure "$round" em-runaway runaway "call $i: HTTP $code $(head -c 300 "$answer" 2> /dev/null)"
      stop_round_servers
      return
    fi
  done
  sleep 2
  record_value "$round" em-runaway runaway_after_kib $(($(rss_kib "${PID[em-runaway]}") - start))
  record_value "$round" em-runaway runaway_peak_kib $(($(awk '/^VmHWM:/ { print $2 }' "/proc/${PID[em-runaway]}/status") - start))
  say "  em-runaway: 3 runaway calls answered 500; peak +$(($(awk '/^VmHWM:/ { print $2 }' "/proc/${PID[em-runaway]}/status") - start)) KiB, 2 s later +$(($(rss_kib "${PID[em-runaway]}") - start)) KiB"
  stop_round_servers
}

in_order() {  # in_order ROUND A B...: the names in this order on odd rounds, reversed on even ones
  local round=$1; shift
  if ((round % 2)); then echo "$@"; else printf '%s\n' "$@" | tac | tr '\n' ' '; fi
}

nginx_write() {  # nginx_write FOLDER < HTTP_BLOCK: FOLDER/nginx.conf, the settings every nginx here shares
  # (in the foreground, no access log, kept-alive connections without end) around the lines of its http block
  mkdir -p "$1/temp"
  cat > "$1/nginx.conf" << EOF
worker_processes $(nproc);
daemon off;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000000;
  client_body_temp_path $1/temp/body; proxy_temp_path $1/temp/proxy; fastcgi_temp_path $1/temp/fastcgi;
  uwsgi_temp_path $1/temp/uwsgi; scgi_temp_path $1/temp/scgi;
$(cat)
}
EOF
}

nginx_config() {  # nginx_config FOLDER PORT: serves the 1 MiB file on every path, like the ceiling
  nginx_write "$1" << EOF
  default_type application/octet-stream;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  server {
    listen 127.0.0.1:$2;
    root $WORK;
    location / { try_files /1MiB.bin =404; }
  }
EOF
}

nginx_proxy_config() {  # nginx_proxy_config FOLDER PORT UPSTREAM_PORT: proxy_pass to the upstream, with kept-alive
  # upstream connections and the X-Forwarded-* headers espressomartini adds
  nginx_write "$1" << EOF
  upstream ceiling {
    server 127.0.0.1:$3;
    keepalive 64;
    keepalive_requests 1000000000;
  }
  server {
    listen 127.0.0.1:$2;
    location / {
      proxy_pass http://ceiling;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header X-Forwarded-Host \$http_host;
    }
  }
EOF
}

nginx_tls_config() {  # nginx_tls_config FOLDER PORT: serves hello's 101 bytes on every path over HTTPS, with
  # espressomartini's certificate, keep-alive as wrk uses it
  mkdir -p "$1/root"
  cp "$WORK/tree-10/network-exchanges/api/v1/hello/GET/response.json" "$1/root/hello.json"
  nginx_write "$1" << EOF
  default_type application/json;
  server {
    listen 127.0.0.1:$2 ssl;
    ssl_certificate $WORK/tls/cert.pem;
    ssl_certificate_key $WORK/tls/key.pem;
    root $1/root;
    location / { try_files /hello.json =404; }
  }
EOF
}

# ------------------------------------------------------------------------------------------- the journal
# Checking what the app sent (doc/testing.md): a count with a JSON Pointer condition over a full journal of
# JOURNAL_ENTRIES requests, each a POSTed order whose /customer/tier is "gold" (so every entry is read to the
# end and matches); and what an entry costs: the resident memory of a server keeping them all beside one
# keeping one, after the same requests.
JOURNAL_ENTRIES=100000
COUNT_FILTER='{"when": {"json": {"/customer/tier": "gold"}}}'

# fill_journal SERVER BODY_FILE: POSTs the file to /api/v1/orders in loads of 2 s until the server has taken
# JOURNAL_ENTRIES of them (bounded: 30 loads); fails when it could not.
fill_journal() {
  local name=$1 body=$2 i sent=0 output n
  for ((i = 0; i < 30 && sent < JOURNAL_ENTRIES; i++)); do
    alive "$name" || return 1
    output=$(timeout 40 wrk -t"$THREADS" -c"$CONNECTIONS" -d2s --timeout 10s -H "Content-Type: application/json" \
      -s "$HERE/wrk_summary.lua" "$(url "$name" json)" -- POST "$body" 2>&1)
    n=$(sed -n 's/^SUMMARY //p' <<< "$output" | python3 -c 'import json, sys; print(json.load(sys.stdin)["requests"])' 2> /dev/null)
    sent=$((sent + ${n:-0}))
  done
  ((sent >= JOURNAL_ENTRIES))
}

# time_count SERVER: checks that the count over the full journal is JOURNAL_ENTRIES and says it may be short,
# then sets COUNT_MS to the median time of 5 counts as curl measures them (ms), or FAILURE.
time_count() {
  local name=$1 target answer times=() i
  target="http://127.0.0.1:${PORT[$name]}/__espressomartini/requests/count"
  answer=$(curl -s -m 60 -X POST -d "$COUNT_FILTER" "$target")
  if [[ $answer != "{\"count\":$JOURNAL_ENTRIES,\"complete\":false}" ]]; then
    FAILURE="the count answered $(head -c 200 <<< "$answer"), not $JOURNAL_ENTRIES of a full journal"
    return 1
  fi
  for ((i = 0; i < 5; i++)); do
    times+=("$(curl -s -o /dev/null -m 60 -w '%{time_total}' -X POST -d "$COUNT_FILTER" "$target")")
  done
  COUNT_MS=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "%.2f", t[int((NR + 1) / 2)] * 1000 }')
}

# journal_round ROUND: both journal servers, the count over 256-byte and over 1 KiB orders, the memory.
journal_round() {
  local round=$1 name
  for name in em-journal em-journal-1; do
    start_server "$name" "$WORK/logs/$name.log" "$BINARY" run --configuration "$WORK/tree-10/configuration-${name#em-}.json" \
      --port "${PORT[$name]}" || { record_failure "$round" "$name" journal "$FAILURE"; return; }
  done
  for name in em-journal em-journal-1; do
    fill_journal "$name" "$WORK/tree-10/order-256.json" \
      || { record_failure "$round" "$name" journal "could not send $JOURNAL_ENTRIES requests: $(log_tail "$name")"; return; }
  done
  sleep 0.5
  record_value "$round" em-journal rss_journal_full_kib "$(rss_kib "${PID[em-journal]}")"
  record_value "$round" em-journal-1 rss_journal_one_kib "$(rss_kib "${PID[em-journal-1]}")"
  if time_count em-journal; then
    record_value "$round" em-journal count_ms "$COUNT_MS"
    say "  count over $JOURNAL_ENTRIES 256-byte orders: $COUNT_MS ms"
  else
    record_failure "$round" em-journal count "$FAILURE"
  fi
  if fill_journal em-journal "$WORK/tree-10/order.json" && time_count em-journal; then
    record_value "$round" em-journal count_1k_ms "$COUNT_MS"
    say "  count over $JOURNAL_ENTRIES 1 KiB orders: $COUNT_MS ms"
  else
    record_failure "$round" em-journal count_1k "${FAILURE:-could not fill the journal}"
  fi
}

# ------------------------------------------------------------------------------------------- set-up
RERUN="make bench"
[[ $QUICK == 1 ]] && RERUN+=" QUICK=1"
[[ -n $ROUNDS_GIVEN ]] && RERUN+=" ROUNDS=$ROUNDS"
[[ -n $SLICES_GIVEN ]] && RERUN+=" SLICES=$SLICES"
[[ -n $DURATION_GIVEN ]] && RERUN+=" DURATION=$DURATION"
MACHINE="$(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
say "machine: $MACHINE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
say "rerun with: $RERUN"
mkdir -p "$WORK/bin" "$WORK/logs" "$RESULTS"
: > "$RAW"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
SECONDS=0

# measure_streams ROUND: the streams and slow-links rows (doc/streams-and-networks.md) on em-streams, the
# stream tree, alone on the machine: 1000 Server-Sent Events streams at once (10 events 100 ms apart) with
# requests for the small JSON meanwhile, after 200 unrecorded streams as a warm-up; one download of 1 MiB at
# 100 KiB/s; 500 downloads of 256 KiB at 64 KiB/s at once. bench/slow_clients.c opens the connections,
# times the events and downloads, and samples the server's threads and resident memory.
measure_streams() {
  local round=$1 out run name
  start_server em-streams "$WORK/logs/em-streams.log" \
    "$BINARY" run --configuration "$WORK/tree-streams/configuration.json" --port "${PORT[em-streams]}" \
    || { record_failure "$round" em-streams events "$FAILURE"; return; }
  local pid=${PID[em-streams]} port=${PORT[em-streams]}
  "$SLOW_CLIENTS" events "$port" /api/v1/events 200 10 100 /api/v1/hello "$pid" > /dev/null 2>&1
  sleep 0.5
  for run in "events 1000 10 100 /api/v1/hello" "slow" "downloads"; do
    case $run in
      events*) out=$("$SLOW_CLIENTS" events "$port" /api/v1/events 1000 10 100 /api/v1/hello "$pid" 2> "$WORK/logs/slow-clients.log") ;;
      slow) out=$("$SLOW_CLIENTS" downloads "$port" /api/v1/slow 1 "$pid" 2> "$WORK/logs/slow-clients.log") ;;
      downloads) out=$("$SLOW_CLIENTS" downloads "$port" /api/v1/downloads 500 "$pid" 2> "$WORK/logs/slow-clients.log") ;;
    esac
    name=${run%% *}
    if [[ $out != "{"* ]]; then
      record_failure "$round" em-streams "$name" "slow_clients gave no figures: $(tail -c 300 "$WORK/logs/slow-clients.log")"
      continue
    fi
    # Every figure of slow_clients' JSON line as a metric named after the run: events_late_p99_ms, …
    python3 -c 'import json, sys
round, name, figures = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
for key, value in figures.items():
    print(json.dumps({"round": round, "server": "em-streams", "metric": name + "_" + key, "value": value}))' "$round" "$name" "$out" >> "$RAW"
    say "  em-streams $name: $out"
  done
  stop_round_servers
}

say "building the ceiling (bench/ceiling.c) into $WORK/bin"
gcc -O2 -Wall -o "$WORK/bin/ceiling" "$HERE/ceiling.c" -lmicrohttpd > "$WORK/logs/ceiling-build.log" 2>&1 \
  || die "gcc could not build bench/ceiling.c: $(tail -5 "$WORK/logs/ceiling-build.log")"
CEILING=$WORK/bin/ceiling
gcc -O2 -Wall -o "$WORK/bin/proxy_ceiling" "$HERE/proxy_ceiling.c" -lmicrohttpd -lpthread > "$WORK/logs/proxy-ceiling-build.log" 2>&1 \
  || die "gcc could not build bench/proxy_ceiling.c: $(tail -5 "$WORK/logs/proxy-ceiling-build.log")"
gcc -O2 -Wall -o "$WORK/bin/files_floor" "$HERE/files_floor.c" > "$WORK/logs/files-floor-build.log" 2>&1 \
  || die "gcc could not build bench/files_floor.c: $(tail -5 "$WORK/logs/files-floor-build.log")"
gcc -O2 -Wall -o "$WORK/bin/slow_clients" "$HERE/slow_clients.c" -lm > "$WORK/logs/slow-clients-build.log" 2>&1 \
  || die "gcc could not build bench/slow_clients.c: $(tail -5 "$WORK/logs/slow-clients-build.log")"
SLOW_CLIENTS=$WORK/bin/slow_clients

say "writing the trees of 10 and $EXCHANGES exchanges under $WORK"
for size in 10 "$EXCHANGES"; do
  python3 "$HERE/make_tree.py" --exchanges "$size" --out "$WORK/tree-$size" --blob "$WORK/1MiB.bin" > /dev/null \
    || die "bench/make_tree.py failed for $size exchanges"
done
# The runaway check's tree: hello (for the readiness poll) and a script that allocates without end.
RUNAWAY_SCRIPT='function response(r, c) { var a = []; while (true) a.push(new Array(1000000).fill(1.5)); }'
mkdir -p "$WORK/tree-runaway/network-exchanges/api/v1/hello/GET" "$WORK/tree-runaway/network-exchanges/api/v1/runaway/GET"
printf '{"hostname": "127.0.0.1", "log_level": "ERROR"}\n' > "$WORK/tree-runaway/configuration.json"
cp "$WORK/tree-10/network-exchanges/api/v1/hello/GET/"* "$WORK/tree-runaway/network-exchanges/api/v1/hello/GET/"
python3 -c 'import json, sys; print(json.dumps({"javascript": sys.argv[1]}))' "$RUNAWAY_SCRIPT" \
  > "$WORK/tree-runaway/network-exchanges/api/v1/runaway/GET/configuration.json"
python3 "$HERE/make_stream_tree.py" --out "$WORK/tree-streams" --blob "$WORK/1MiB.bin" || die "bench/make_stream_tree.py failed"
# The 40 000 files just written go to disk now, not in the kernel's write-back during a timed start-up.
if [[ -n $BASELINE_BINARY ]]; then
  python3 "$HERE/make_tree.py" --exchanges "$EXCHANGES" --out "$WORK/tree-plain-$EXCHANGES" --blob "$WORK/1MiB.bin" --plain > /dev/null \
    || die "bench/make_tree.py failed for the plain tree"
fi
sync
"$BINARY" endpoints --configuration "$WORK/tree-$EXCHANGES/configuration.json" > /dev/null 2> "$WORK/logs/endpoints.log" \
  || die "espressomartini does not load the $EXCHANGES-exchange tree: $(tail -5 "$WORK/logs/endpoints.log")"

# import openapi: a generated description of 1000 operations (bench/make_openapi.py), and the OpenAPI
# Initiative's petstore, imported into fresh folders (removed at the end: deleting thousands of files just
# before a timed import would make the file system's inode allocation the figure).
IMPORTS=$WORK/imports
rm -rf "$IMPORTS" "$RECORDED" ${RECORDED_SHM:+"$RECORDED_SHM"}
mkdir -p "$IMPORTS"
OPENAPI_1000=$WORK/openapi-1000.yaml
OPENAPI_PETSTORE=$REPO/Tests/OpenAPI/Fixtures/oai/v3.0/petstore.yaml
python3 "$HERE/make_openapi.py" --operations 1000 --out "$OPENAPI_1000" || die "bench/make_openapi.py failed"
"$BINARY" import openapi "$OPENAPI_1000" --requests-folder "$IMPORTS/check" > /dev/null 2> "$WORK/logs/import.log" \
  || die "espressomartini does not import $OPENAPI_1000: $(tail -5 "$WORK/logs/import.log")"

# Stripe's public description (../shared/data/openapi-public/, beside the project; its rows are left out
# without it), imported once: 468 operations, 5 148 `Prefer` variants. A hello exchange beside them is what
# start_server waits for.
STRIPE_SPEC=$(dirname "$REPO")/shared/data/openapi-public/stripe-spec3.yaml
STRIPE_TREE=$WORK/tree-stripe/network-exchanges
if [[ -f $STRIPE_SPEC ]]; then
  rm -rf "$WORK/tree-stripe"
  "$BINARY" import openapi "$STRIPE_SPEC" --requests-folder "$STRIPE_TREE" > /dev/null 2> "$WORK/logs/import-stripe.log" \
    || die "espressomartini does not import $STRIPE_SPEC: $(tail -5 "$WORK/logs/import-stripe.log")"
  mkdir -p "$STRIPE_TREE/api/v1/hello/GET"
  echo '{"body": {"hello": "stripe"}}' > "$STRIPE_TREE/api/v1/hello/GET/configuration.json"
  sync
else
  say "no $STRIPE_SPEC: no rows for Stripe's imported tree"
  STRIPE_SPEC=""
fi

NGINX=""
if command -v nginx > /dev/null; then NGINX=$(command -v nginx); else say "nginx is not installed: no nginx rows (optional)"; fi

# One certificate for espressomartini and nginx over HTTPS, made now (RSA 2048, as most are).
mkdir -p "$WORK/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=espressomartini-bench -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$WORK/tls/key.pem" -out "$WORK/tls/cert.pem" > "$WORK/logs/openssl.log" 2>&1 \
  || die "openssl could not make the bench certificate: $(tail -5 "$WORK/logs/openssl.log")"

# ------------------------------------------------------------------------------------------- rounds
# Servers of a round:
#   ceiling       bench/ceiling.c, the 101-byte JSON on every path
#   ceiling-file  bench/ceiling.c serving the 1 MiB file on every path
#   em-10         espressomartini, 10-exchange tree, log_level ERROR
#   em-10-info    the same with log_level INFO, the access log written to a file
#   em-10000      espressomartini, 10 000-exchange tree, log_level ERROR
#   em-10-cors    espressomartini, 10-exchange tree, log_level ERROR, "cors": true (--cors)
#   em-10-tls     espressomartini, 10-exchange tree, log_level ERROR, HTTPS
#   upstream      bench/ceiling.c again, the real API of the proxy comparisons
#   em-proxy      espressomartini, 10-exchange tree, log_level ERROR, --proxy to the upstream
#   ceiling-proxy bench/proxy_ceiling.c, forwarding to the upstream as bare libmicrohttpd can
#   em-record     espressomartini record --target the upstream, log_level ERROR, into BENCH_DIR/recorded-STAMP/ROUND
#   em-record-shm the same into /dev/shm (tmpfs), when there is one
#   em-runaway    espressomartini on a tree of hello and a script that allocates without end, alone
#   em-streams    espressomartini, the stream tree, log_level ERROR, alone once the others have stopped
#   nginx         nginx serving the 1 MiB file (when installed)
#   nginx-tls     nginx serving hello's 101 bytes over HTTPS with the same certificate (when installed)
#   nginx-proxy   nginx proxy_pass to the upstream, upstream keepalive (when installed)
#   em-plain      espressomartini, the 10 000-exchange tree without part-two keys (with BASELINE_BINARY)
#   em-baseline   the baseline binary on that tree (with BASELINE_BINARY)
#   em-runtime    espressomartini, 10-exchange tree, with 1000 runtime exchanges over 100 sessions and one for
#                 every request (bench/add_runtime_exchanges.py)
#   em-journal    espressomartini, 10-exchange tree, journal_size 100000: the count over a full journal
#   em-journal-1  the same with journal_size 1, beside it for the memory of an entry
say "rounds: $ROUNDS; per comparison, $SLICES alternating slices per server of wrk -t$THREADS -c$CONNECTIONS (-c$FILE_CONNECTIONS for the file) -d${DURATION}s"
for ((round = 1; round <= ROUNDS; round++)); do
  say "round $round/$ROUNDS"
  names=(ceiling ceiling-file em-10 em-runtime em-10-info em-10000 em-10-cors em-10-tls em-journal em-journal-1 em-streams em-runaway upstream em-proxy ceiling-proxy em-record)
  [[ -n $RECORDED_SHM ]] && names+=(em-record-shm)
  [[ -n $NGINX ]] && names+=(nginx nginx-tls nginx-proxy)
  [[ -n $BASELINE_BINARY ]] && names+=(em-plain em-baseline)
  [[ -n $STRIPE_SPEC ]] && names+=(em-stripe)
  SCHEME=([em-10-tls]=https [nginx-tls]=https)
  mapfile -t ports < <(python3 "$HERE/free_ports.py" "${#names[@]}")
  [[ ${#ports[@]} -eq ${#names[@]} ]] || die "could not find ${#names[@]} free ports on 127.0.0.1"
  for i in "${!names[@]}"; do PORT[${names[$i]}]=${ports[$i]}; done

  # import openapi, nothing else running: each description imported IMPORT_RUNS times into a new folder; the
  # round's figure is the median run (wall time, and the peak resident memory of that process).
  for description in openapi-1000 petstore; do
    spec=$OPENAPI_1000
    [[ $description == petstore ]] && spec=$OPENAPI_PETSTORE
    runs=()
    for ((run = 1; run <= IMPORT_RUNS; run++)); do
      runs+=("$(python3 "$HERE/time_command.py" "$BINARY" import openapi "$spec" --requests-folder "$IMPORTS/$description-$round-$run")")
    done
    read -r wall rss status < <(python3 -c 'import json, statistics, sys
runs = sorted((json.loads(r) for r in sys.argv[1:]), key=lambda r: r["wall_s"])
middle = runs[len(runs) // 2]
print(middle["wall_s"], middle["maxrss_kib"], max(r["status"] for r in runs))' "${runs[@]}")
    [[ $status == 0 ]] || die "round $round: import openapi $spec exited $status"
    record_value "$round" "import-$description" wall_s "$wall"
    record_value "$round" "import-$description" maxrss_kib "$rss"
    say "  import openapi $description: $(awk -v s="$wall" 'BEGIN { printf "%.0f", s * 1000 }') ms, peak $((rss / 1024)) MiB"
  done

  # Start-up to the first 200, then idle memory: the ceiling and espressomartini on the big tree, one at a
  # time, nothing else running. Warm start: `endpoints` reads the whole tree (and the binary) just before, so
  # that the figure does not depend on what the kernel evicted from its caches since the last round (a cold
  # start can take several times as long).
  "$BINARY" endpoints --configuration "$WORK/tree-$EXCHANGES/configuration.json" > /dev/null 2>&1
  "$CEILING" > /dev/null 2>&1
  for name in $(in_order "$round" ceiling em-10000); do
    case $name in
      ceiling) start_server ceiling "$WORK/logs/ceiling.log" "$CEILING" "${PORT[ceiling]}" ;;
      em-10000) start_server em-10000 "$WORK/logs/em-10000.log" \
        "$BINARY" run --configuration "$WORK/tree-$EXCHANGES/configuration.json" --port "${PORT[em-10000]}" ;;
    esac || die "round $round: $FAILURE"
    record_value "$round" "$name" startup_s "$STARTUP_S"
    say "  $name: first 200 after $(awk -v s="$STARTUP_S" 'BEGIN { printf "%.1f", s * 1000 }') ms"
  done
  sleep 1   # espressomartini sets up its file watcher after it starts answering
  for name in ceiling em-10000; do
    record_value "$round" "$name" rss_idle_kib "$(rss_kib "${PID[$name]}")"
    record_value "$round" "$name" threads_idle "$(threads "${PID[$name]}")"
  done
  # Stripe's imported tree, the same way, alone: the first 200, idle memory, then `endpoints` on it (the
  # median of IMPORT_RUNS runs), the server stopped before the next measure.
  if [[ -n $STRIPE_SPEC ]]; then
    "$BINARY" endpoints --requests-folder "$STRIPE_TREE" > /dev/null 2>&1
    start_server em-stripe "$WORK/logs/em-stripe.log" \
      "$BINARY" run --requests-folder "$STRIPE_TREE" --port "${PORT[em-stripe]}" --log-level ERROR \
      || die "round $round: $FAILURE"
    record_value "$round" em-stripe startup_s "$STARTUP_S"
    sleep 1
    record_value "$round" em-stripe rss_idle_kib "$(rss_kib "${PID[em-stripe]}")"
    say "  em-stripe: first 200 after $(awk -v s="$STARTUP_S" 'BEGIN { printf "%.1f", s * 1000 }') ms, $(($(rss_kib "${PID[em-stripe]}") / 1024)) MiB idle"
    stop_pids "${PID[em-stripe]}"
    runs=()
    for ((run = 1; run <= IMPORT_RUNS; run++)); do
      runs+=("$(python3 "$HERE/time_command.py" "$BINARY" endpoints --requests-folder "$STRIPE_TREE")")
    done
    read -r wall status < <(python3 -c 'import json, sys
runs = sorted((json.loads(r) for r in sys.argv[1:]), key=lambda r: r["wall_s"])
print(runs[len(runs) // 2]["wall_s"], max(r["status"] for r in runs))' "${runs[@]}")
    [[ $status == 0 ]] || die "round $round: endpoints on Stripe's tree exited $status"
    record_value "$round" em-stripe endpoints_wall_s "$wall"
    say "  endpoints on Stripe's tree: $(awk -v s="$wall" 'BEGIN { printf "%.0f", s * 1000 }') ms"
  fi

  # This build and the baseline on the plain tree, the same way, one at a time.
  if [[ -n $BASELINE_BINARY ]]; then
    for name in $(in_order "$round" em-plain em-baseline); do
      binary=$BINARY
      [[ $name == em-baseline ]] && binary=$BASELINE_BINARY
      "$binary" endpoints --configuration "$WORK/tree-plain-$EXCHANGES/configuration.json" > /dev/null 2>&1
      start_server "$name" "$WORK/logs/$name.log" \
        "$binary" run --configuration "$WORK/tree-plain-$EXCHANGES/configuration.json" --port "${PORT[$name]}" \
        || die "round $round: $FAILURE"
      record_value "$round" "$name" startup_s "$STARTUP_S"
      sleep 1
      record_value "$round" "$name" rss_idle_kib "$(rss_kib "${PID[$name]}")"
      record_value "$round" "$name" threads_idle "$(threads "${PID[$name]}")"
      say "  $name: first 200 after $(awk -v s="$STARTUP_S" 'BEGIN { printf "%.1f", s * 1000 }') ms"
    done
  fi

  start_server ceiling-file "$WORK/logs/ceiling-file.log" "$CEILING" "${PORT[ceiling-file]}" "$WORK/1MiB.bin" \
    || die "round $round: $FAILURE"
  start_server em-10 "$WORK/logs/em-10.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration.json" --port "${PORT[em-10]}" \
    || die "round $round: $FAILURE"
  # The decision probes must get 200 from the variant meant to answer, or their figures would measure a 404.
  for probe in variants json template sessions script scriptjson; do
    reason=$(check_probe em-10 "$probe") || die "round $round: em-10 $probe: $reason"
  done
  start_server em-runtime "$WORK/logs/em-runtime.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration.json" --port "${PORT[em-runtime]}" \
    || die "round $round: $FAILURE"
  python3 "$HERE/add_runtime_exchanges.py" "${PORT[em-runtime]}" || die "round $round: em-runtime's exchanges"
  # INFO: one access-log line per request, on standard error, here into a file.
  start_server em-10-info "$WORK/logs/em-10-info.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration-info.json" --port "${PORT[em-10-info]}" \
    || die "round $round: $FAILURE"
  start_server em-10-cors "$WORK/logs/em-10-cors.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration.json" --port "${PORT[em-10-cors]}" --cors \
    || die "round $round: $FAILURE"
  start_server em-10-tls "$WORK/logs/em-10-tls.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration.json" --port "${PORT[em-10-tls]}" \
    --tls-certificate "$WORK/tls/cert.pem" --tls-key "$WORK/tls/key.pem" \
    || die "round $round: $FAILURE"
  if [[ -n $NGINX ]]; then
    nginx_config "$WORK/nginx" "${PORT[nginx]}"
    if ! start_server nginx "$WORK/logs/nginx.log" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log"; then
      say "  nginx did not start, no nginx row: $FAILURE"
      record_failure "$round" nginx file "$FAILURE"
    fi
    nginx_tls_config "$WORK/nginx-tls" "${PORT[nginx-tls]}"
    if ! start_server nginx-tls "$WORK/logs/nginx-tls.log" "$NGINX" -p "$WORK/nginx-tls" -c "$WORK/nginx-tls/nginx.conf" -e "$WORK/nginx-tls/error.log"; then
      say "  nginx over HTTPS did not start, no HTTPS row: $FAILURE"
      record_failure "$round" nginx-tls tls "$FAILURE"
    fi
  fi
  # The proxies: espressomartini forwarding (and recording) to a ceiling of their own, against nginx.
  start_server upstream "$WORK/logs/upstream.log" "$CEILING" "${PORT[upstream]}" || die "round $round: $FAILURE"
  start_server em-proxy "$WORK/logs/em-proxy.log" \
    "$BINARY" run --configuration "$WORK/tree-10/configuration.json" --port "${PORT[em-proxy]}" --proxy "http://127.0.0.1:${PORT[upstream]}" \
    || die "round $round: $FAILURE"
  start_server ceiling-proxy "$WORK/logs/ceiling-proxy.log" "$WORK/bin/proxy_ceiling" "${PORT[ceiling-proxy]}" "${PORT[upstream]}" \
    || die "round $round: $FAILURE"
  start_server em-record "$WORK/logs/em-record.log" \
    "$BINARY" record --configuration "$WORK/tree-10/configuration.json" --requests-folder "$RECORDED/$round" \
    --port "${PORT[em-record]}" --target "http://127.0.0.1:${PORT[upstream]}" \
    || die "round $round: $FAILURE"
  if [[ -n $RECORDED_SHM ]]; then
    start_server em-record-shm "$WORK/logs/em-record-shm.log" \
      "$BINARY" record --configuration "$WORK/tree-10/configuration.json" --requests-folder "$RECORDED_SHM/$round" \
      --port "${PORT[em-record-shm]}" --target "http://127.0.0.1:${PORT[upstream]}" \
      || die "round $round: $FAILURE"
  fi
  if [[ -n $NGINX ]]; then
    nginx_proxy_config "$WORK/nginx-proxy" "${PORT[nginx-proxy]}" "${PORT[upstream]}"
    if ! start_server nginx-proxy "$WORK/logs/nginx-proxy.log" "$NGINX" -p "$WORK/nginx-proxy" -c "$WORK/nginx-proxy/nginx.conf" -e "$WORK/nginx-proxy/error.log"; then
      say "  nginx as a proxy did not start, no proxy row: $FAILURE"
      record_failure "$round" nginx-proxy proxied "$FAILURE"
    fi
  fi
  for name in ceiling em-10 em-10-info; do warm_up "$name" hello; done
  warm_up em-proxy proxied
  warm_up ceiling-proxy proxied
  alive nginx-proxy && warm_up nginx-proxy proxied
  warm_up em-proxy distinct
  warm_up em-10-cors cors
  warm_up em-10-tls tls
  alive nginx-tls && warm_up nginx-tls tls
  for probe in variants json template sessions script scriptjson; do warm_up em-10 "$probe"; done
  warm_up em-10000 deep
  if [[ -n $BASELINE_BINARY ]]; then for name in em-plain em-baseline; do warm_up "$name" plain; done; fi
  warm_up ceiling-file file

  # Small JSON: the ceiling, espressomartini, and espressomartini with the access log. Were all the
  # requests logged? The lines the loads added, against the requests wrk counted.
  lines=$(wc -l < "${LOG[em-10-info]}")
  compare_loads "$round" "$CONNECTIONS" $(in_order "$round" ceiling:hello em-10:hello em-10-info:hello em-10-cors:cors)
  sleep 0.5   # the log is written from a background thread
  record_value "$round" em-10-info access_log_lines $(($(wc -l < "${LOG[em-10-info]}") - lines))
  record_value "$round" ceiling rss_after_kib "$(rss_kib "${PID[ceiling]}")"
  # The same with few connections, where each request is a turn of a server's loop.
  compare_loads "$round" "$FEW_CONNECTIONS" $(in_order "$round" ceiling:hello2 em-10:hello2)
  # This build against the baseline, the small JSON on the plain tree, with many and with few connections.
  [[ -n $BASELINE_BINARY ]] && compare "$round" plain "$CONNECTIONS" $(in_order "$round" em-plain em-baseline)
  [[ -n $BASELINE_BINARY ]] && compare "$round" plain2 "$FEW_CONNECTIONS" $(in_order "$round" em-plain em-baseline)
  # Deciding by variants against the static answer, in the same server: hello again (as `static`), the
  # last of 4 variants (a header and a query parameter), a JSON Pointer condition on a 1 KiB POSTed body, a
  # templated JSON body with three values from the request, the small JSON with a session header.
  compare_loads "$round" "$CONNECTIONS" $(in_order "$round" em-10:static em-10:variants em-10:json em-10:template em-10:sessions)
  # The tree's static answer beside 1000 runtime exchanges over 100 sessions, against the same tree without
  # them (without a session header, and with 1000 sessions in rotation, a tenth of them with exchanges of their
  # own); then a runtime exchange's answer against the tree's same answer, in the server that has both.
  warm_up em-runtime hello
  compare "$round" hello "$CONNECTIONS" $(in_order "$round" em-10 em-runtime)
  compare "$round" sessions "$CONNECTIONS" $(in_order "$round" em-10 em-runtime)
  compare_loads "$round" "$CONNECTIONS" $(in_order "$round" em-runtime:static em-runtime:runtime)
  # Scripts against the static answer, in the same server, then its memory after them.
  compare_loads "$round" "$CONNECTIONS" $(in_order "$round" em-10:static em-10:script em-10:scriptjson)
  alive em-10 && record_value "$round" em-10 rss_after_scripts_kib "$(rss_kib "${PID[em-10]}")"
  # Routes on the big tree against the same routes on the small one.
  for probe in deep id glob; do compare "$round" "$probe" "$CONNECTIONS" $(in_order "$round" em-10 em-10000); done
  alive em-10000 && record_value "$round" em-10000 rss_after_kib "$(rss_kib "${PID[em-10000]}")"
  # Small JSON over HTTPS on kept-alive connections, against nginx with the same certificate.
  tls_servers=(em-10-tls)
  alive nginx-tls && tls_servers+=(nginx-tls)
  compare "$round" tls "$CONNECTIONS" $(in_order "$round" "${tls_servers[@]}")
  # The 1 MiB file.
  file_servers=(ceiling-file em-10)
  alive nginx && file_servers+=(nginx)
  compare "$round" file "$FILE_CONNECTIONS" $(in_order "$round" "${file_servers[@]}")
  for name in ceiling-file em-10; do
    alive "$name" && record_value "$round" "$name" rss_after_file_kib "$(rss_kib "${PID[$name]}")"
  done
  # Forwarding the small JSON: espressomartini against nginx and bare libmicrohttpd, all to the upstream.
  proxy_servers=(em-proxy ceiling-proxy)
  alive nginx-proxy && proxy_servers+=(nginx-proxy)
  compare "$round" proxied "$CONNECTIONS" $(in_order "$round" "${proxy_servers[@]}")
  compare "$round" proxied2 "$FEW_CONNECTIONS" $(in_order "$round" "${proxy_servers[@]}")
  # Recording requests it has never seen, against forwarding such requests; each recording load counts until
  # its writes are done.
  recorders=(em-proxy:distinct em-record:recorded)
  [[ -n $RECORDED_SHM ]] && recorders+=(em-record-shm:recorded)
  compare_loads "$round" "$CONNECTIONS" $(in_order "$round" "${recorders[@]}")
  alive em-record && record_value "$round" em-record rss_after_kib "$(rss_kib "${PID[em-record]}")"
  # What the file system allows: the folders and files of as many new exchanges, from a C loop.
  read -r floor_rate floor_cpu_us <<< "$("$WORK/bin/files_floor" "$RECORDED/floor-$round" 20000)"
  record_value "$round" files-floor exchanges_per_s "$floor_rate"
  record_value "$round" files-floor cpu_us_per_exchange "$floor_cpu_us"
  if [[ -n $RECORDED_SHM ]]; then
    read -r floor_rate floor_cpu_us <<< "$("$WORK/bin/files_floor" "$RECORDED_SHM/floor-$round" 20000)"
    record_value "$round" files-floor-shm exchanges_per_s "$floor_rate"
    record_value "$round" files-floor-shm cpu_us_per_exchange "$floor_cpu_us"
  fi
  record_value "$round" machine cores "$(nproc)"
  stop_round_servers   # the streams below measure time to the millisecond: nothing else running
  measure_streams "$round"

  # The journal, with the other servers of the round stopped: counting is CPU work on every core.
  stop_round_servers
  journal_round "$round"
  stop_round_servers
  runaway_check "$round"
  rm -f "$WORK/logs/em-10-info.log"   # tens of MiB of access log
done

rm -rf "$IMPORTS" "$RECORDED" ${RECORDED_SHM:+"$RECORDED_SHM"}

# ------------------------------------------------------------------------------------------- report
report=$RESULTS/$STAMP.md
python3 "$HERE/report.py" "$RAW" \
  "date=$(date '+%Y-%m-%d %H:%M %Z')" \
  "machine=$MACHINE" \
  "load=$LOAD_BEFORE before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
  "rerun=$RERUN" \
  "version=$("$BINARY" --version 2>/dev/null | head -1), commit $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)" \
  "libmicrohttpd=$(pkg-config --modversion libmicrohttpd 2>/dev/null || echo '?')" \
  "settings=$ROUNDS round(s); per comparison, $SLICES slices per server, alternating, of wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency (-c$FILE_CONNECTIONS for the file, -c$FEW_CONNECTIONS for the few-connections rows)" \
  "wall=$SECONDS" \
  "nginx=$([[ -n $NGINX ]] && "$NGINX" -v 2>&1 | sed 's/.*: //')" \
  "baseline=$([[ -n $BASELINE_BINARY ]] && echo "$BASELINE ($("$BASELINE_BINARY" --version 2>/dev/null | head -1))")" \
  > "$report" || die "bench/report.py failed; the raw numbers are in $RAW"
cp "$RAW" "$RESULTS/$STAMP.jsonl"
cat "$report"
say "written: $report (raw: $RESULTS/$STAMP.jsonl); wall time ${SECONDS} s"
