#!/usr/bin/env bash
# Server benchmarks (issue 6): the echo floor and the real server, side by side in one
# run, on loopback. Builds release, starts its own goserver on a free port, runs
#   1. one game ping-pong      vs echo with 1 connection pair
#   2. 64 games at once        vs echo with 64 pairs (128 connections)
#   3. hold 10,000 clients     (5,000 live games), server RSS from /proc
# and writes a results table to bench-results.md at the repo root and into README.md
# (between the markers <!-- bench-results:start --> and <!-- bench-results:end -->).
# Bounded in time (each step has a timeout; the whole script takes about a minute),
# stops by itself and always stops its server.
#
# Environment: MOVES (stones per game, default 60), SIZE (board, 19), PP_GAMES (20),
# PAR_GAMES (256), HOLD_CLIENTS (10000), HOLD_SECS (5), ECHO_ROUNDS (2000), ROUNDS (5).
#
# A 2-core machine is noisy (the floor alone varies by up to a factor of two between runs), so
# steps 1 and 2 are repeated ROUNDS times, each server run right after its floor, and
# the verdicts use the median ratio of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."

MOVES=${MOVES:-60}
SIZE=${SIZE:-19}
PP_GAMES=${PP_GAMES:-20}
PAR_GAMES=${PAR_GAMES:-256}
HOLD_CLIENTS=${HOLD_CLIENTS:-10000}
HOLD_SECS=${HOLD_SECS:-5}
ECHO_ROUNDS=${ECHO_ROUNDS:-2000}
ROUNDS=${ROUNDS:-9}
OUT=bench-results.md

cargo build --release --bin goserver --bin loadgen >&2
LOADGEN=target/release/loadgen
SERVER=target/release/goserver

LOG=$(mktemp -t goserver-bench.XXXXXX)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
    fi
    rm -f "$LOG"
}
trap cleanup EXIT INT TERM

start_server() {
    PORT=$("$LOADGEN" free-port)
    # Room for HOLD_CLIENTS plus stragglers of earlier steps.
    "$SERVER" --host 127.0.0.1 --port "$PORT" --no-console --log-level warn \
        --max-clients $((HOLD_CLIENTS + 2000)) 2>"$LOG" </dev/null &
    SERVER_PID=$!
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    echo "bench: server did not start" >&2; cat "$LOG" >&2; exit 1
}

# run <label> <command...>: prints the tool's output to stderr, keeps its RESULT line.
run() {
    local label=$1; shift
    echo "== $label: $*" >&2
    local out
    out=$(timeout 150 "$@" 2>&1) || true
    echo "$out" >&2
    local result
    result=$(grep "^RESULT " <<<"$out" | tail -1 || true)
    [[ -n "$result" ]] || result="RESULT mode=failed errors=1"
    printf -v "R_$label" '%s' "$result"
}

start_server
ADDR=127.0.0.1:$PORT
GAME_ARGS=(--addr "$ADDR" --moves "$MOVES" --size "$SIZE")
SECONDS=0

# field <result line> <key>
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "na" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The floor answers each 20-byte line with a line the size of an ACKNOWLEDGE_MOVE on
# this board ("ACKNOWLEDGE_MOVE+<id>+<index>;<c>+PLAYING;<c>;" and one digit a point).
REPLY_LEN=$((38 + SIZE * SIZE))
PP=() TP=() P99=() GAME_ERRORS=0
for round in $(seq "$ROUNDS"); do
    run echo1  "$LOADGEN" echo --pairs 1 --rounds "$ECHO_ROUNDS" --reply-len "$REPLY_LEN"
    run game1  "$LOADGEN" games "${GAME_ARGS[@]}" --games "$PP_GAMES" --concurrent 1 --prefix "p${round}_" --timeout 120
    run echo64 "$LOADGEN" echo --pairs 64 --rounds "$((ECHO_ROUNDS / 4))" --reply-len "$REPLY_LEN"
    run game64 "$LOADGEN" games "${GAME_ARGS[@]}" --games "$PAR_GAMES" --concurrent 64 --prefix "q${round}_" --timeout 120
    PP+=("$(ratio "$(field "$R_game1" p50)" "$(field "$R_echo1" p50)")")
    TP+=("$(ratio "$(field "$R_game64" ops_per_s)" "$(field "$R_echo64" ops_per_s)")")
    P99+=("$(ratio "$(field "$R_game64" p99)" "$(field "$R_echo64" p99)")")
    GAME_ERRORS=$((GAME_ERRORS + $(field "$R_game1" errors) + $(field "$R_game64" errors)))
done
sleep 1 # let the previous clients' threads go
run hold   "$LOADGEN" hold --addr "$ADDR" --clients "$HOLD_CLIENTS" --server-pid "$SERVER_PID" \
    --hold-secs "$HOLD_SECS" --timeout 90
SERVER_WARNINGS=$(grep -c 'WARN\|ERROR' "$LOG" || true)
FIRST_WARNING=$(grep -m1 'WARN\|ERROR' "$LOG" | sed 's/^[^ ]* //' || true)

verdict() { if [[ "$1" == 1 ]]; then echo met; else echo "**missed**"; fi; }
e1=$R_echo1 g1=$R_game1 e64=$R_echo64 g64=$R_game64 h=$R_hold
pp_ratio=$(median "${PP[@]}")
tp_ratio=$(median "${TP[@]}")
p99_ratio=$(median "${P99[@]}")
pp_ok=$(awk -v r="$pp_ratio" -v e="$GAME_ERRORS" 'BEGIN { print (r != "na" && r <= 2 && e == 0) ? 1 : 0 }')
tp_ok=$(awk -v r="$tp_ratio" -v p="$p99_ratio" -v e="$GAME_ERRORS" \
    'BEGIN { print (r != "na" && r >= 0.5 && p <= 5 && e == 0) ? 1 : 0 }')
rss_mb=$(awk -v k="$(field "$h" rss_kb)" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.0f", k / 1024; else print "na" }')
hold_ok=$(awk -v l="$(field "$h" live)" -v n="$HOLD_CLIENTS" -v m="$rss_mb" -v e="$(field "$h" errors)" \
    'BEGIN { print (l == n && m != "na" && m < 300 && e == 0) ? 1 : 0 }')

row() { # label result
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$(field "$2" p50)" "$(field "$2" p90)" \
        "$(field "$2" p99)" "$(field "$2" p999)" "$(field "$2" max)" "$(field "$2" ops_per_s)" \
        "$(field "$2" games_per_s)" "$(field "$2" errors)"
}

{
    echo "# goserver benchmark results"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(uname -r), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (dirty)'),"
    echo "produced by \`scripts/bench.sh\` (MOVES=$MOVES SIZE=$SIZE PP_GAMES=$PP_GAMES PAR_GAMES=$PAR_GAMES HOLD_CLIENTS=$HOLD_CLIENTS) in ${SECONDS}s."
    echo "Latency is MOVE -> own ACKNOWLEDGE_MOVE (floor: a 20-byte line -> a ${REPLY_LEN}-byte reply, the sizes of MOVE and ACKNOWLEDGE_MOVE), µs; rate is moves (round trips) per second."
    echo
    echo "The table shows the last of $ROUNDS rounds; the verdicts use the median ratio over all rounds."
    echo
    echo "| run | p50 | p90 | p99 | p99.9 | max | moves/s | games/s | errors |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    row "echo floor, 1 pair" "$e1"
    row "server, 1 game ping-pong" "$g1"
    row "echo floor, 64 pairs (128 conns)" "$e64"
    row "server, 64 games at once ($PAR_GAMES in all)" "$g64"
    echo
    echo "| target | measured | verdict |"
    echo "| --- | --- | --- |"
    echo "| 1 game p50 ≤ 2x echo p50 | median ${pp_ratio}x (rounds: ${PP[*]}) | $(verdict "$pp_ok") |"
    echo "| 64 games moves/s ≥ 0.5x echo round trips/s; p99 ≤ 5x echo p99 | median ${tp_ratio}x (rounds: ${TP[*]}); p99 median ${p99_ratio}x (rounds: ${P99[*]}) | $(verdict "$tp_ok") |"
    echo "| $HOLD_CLIENTS clients live, RSS < 300 MB, no errors | $(field "$h" live) live in $(field "$h" ramp_secs)s, RSS ${rss_mb} MB, $(field "$h" threads) threads, $(field "$h" fds) fds, $(field "$h" maps) mappings, $(field "$h" errors) errors | $(verdict "$hold_ok") |"
    echo
    echo "Server warnings/errors logged: $SERVER_WARNINGS${FIRST_WARNING:+ (first: \`$FIRST_WARNING\`)}"
} >"$OUT"

cat "$OUT"

# Keep the README's figures current: everything after the title line of $OUT goes
# between the markers.
if grep -q '<!-- bench-results:start -->' README.md; then
    awk -v results="$OUT" '
        /<!-- bench-results:start -->/ {
            print
            while ((getline line < results) > 0) if (seen++) print line
            skipping = 1
            next
        }
        /<!-- bench-results:end -->/ { skipping = 0 }
        !skipping
    ' README.md >README.md.new && mv README.md.new README.md
    echo "README.md figures updated" >&2
fi
