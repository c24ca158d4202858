#!/usr/bin/env bash
# Server benchmarks (issues 6 and 12): two floors and the real server, side by side in
# one run, on loopback. Builds release, starts its own goserver on a free port, runs
#   1. one game ping-pong      vs the echo and relay floors with 1 connection pair
#   2. 64 games at once        vs the echo and relay floors with 64 pairs (128 connections)
#   3. pairing latency         (connect .. both ACKNOWLEDGE_CONFIG), 1 game at a time
#                              and 64 at once
#   4. hold 10,000 clients     (5,000 live games), server RSS from /proc
#   5. floods                  per front end: valid lines as fast as TCP takes them for
#                              FLOOD_SECS while a neighbour plays (latency, RSS)
#   6. the web board           100 viewers' delay after a move; 64 games with and
#                              without 100 viewers (WEB_ROUNDS rounds)
#   7. the practice bot        its simulations per second (cargo bench --bench bot), and
#                              GNU Go against it through the GO! protocol (loadgen
#                              gnugo-match, a GTP-to-GO! bridge) on a server of its own
# and writes a results table to bench-results.md at the repo root and into
# docs/performance.md (between the markers <!-- bench-results:start --> and
# <!-- bench-results:end -->).
# The floors: `echo` answers each line on its reading thread; `relay` is this server's
# skeleton (a reader thread per connection, one relay thread per pair answering both).
# Bounded in time (each step has a timeout; steps 1 to 4 take about a minute or two,
# step 5 two minutes, step 6 a few, step 7 about two minutes a game), stops by itself
# and always stops its server.
#
# Environment: MOVES (stones per game, default 60), SIZE (board, 19), PP_GAMES (20),
# PAR_GAMES (256), PAIR_GAMES (200, one at a time), PAIR64_GAMES (640, 64 at once),
# HOLD_CLIENTS (10000), HOLD_SECS (5), ECHO_ROUNDS (2000), ROUNDS (9), FLOOD_SECS (30),
# WEB_ROUNDS (7); for step 7: BOT_GAMES (20; 0 skips the match), BOT_LEVEL (5),
# BOT_THINK_MS (1000), GNUGO_LEVEL (10), BOT_SIZE (9), BOT_KOMI (7), GNUGO
# (/usr/games/gnugo).
#
# BEFORE_REF (default 9d1253b, the main of issue 27; "none" skips it): that commit is
# built in a git worktree under target/bench-before and runs beside this one, GO! only;
# every round of step 2 runs the same 64 games on it right after this build's, so the
# figure before and after a change comes from one run.
#
# A 2-core machine is noisy (the floor alone varies by up to a factor of two between
# runs), so steps 1 to 3 are repeated ROUNDS times, each server run right after its
# floors, and the verdicts use the median of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."

MOVES=${MOVES:-60}
SIZE=${SIZE:-19}
PP_GAMES=${PP_GAMES:-20}
PAR_GAMES=${PAR_GAMES:-256}
PAIR_GAMES=${PAIR_GAMES:-200}
PAIR64_GAMES=${PAIR64_GAMES:-640}
HOLD_CLIENTS=${HOLD_CLIENTS:-10000}
HOLD_SECS=${HOLD_SECS:-5}
ECHO_ROUNDS=${ECHO_ROUNDS:-2000}
ROUNDS=${ROUNDS:-9}
FLOOD_SECS=${FLOOD_SECS:-30}
WEB_ROUNDS=${WEB_ROUNDS:-7}
BOT_GAMES=${BOT_GAMES:-20}
BOT_LEVEL=${BOT_LEVEL:-5}
BOT_THINK_MS=${BOT_THINK_MS:-1000}
GNUGO_LEVEL=${GNUGO_LEVEL:-10}
BOT_SIZE=${BOT_SIZE:-9}
BOT_KOMI=${BOT_KOMI:-7}
GNUGO=${GNUGO:-/usr/games/gnugo}
OUT=bench-results.md
# The cargo to run (make passes its own: `make bench CARGO="flock /tmp/lock cargo"`).
CARGO=${CARGO:-cargo}

$CARGO build --release --workspace --bins >&2
LOADGEN=target/release/loadgen
SERVER=target/release/goserver

# The server before (BEFORE_REF), built once in its own worktree and target directory.
BEFORE_REF=${BEFORE_REF:-9d1253b}
BEFORE_SERVER=
if [[ $BEFORE_REF != none ]]; then
    BEFORE_DIR=target/bench-before
    BEFORE_COMMIT=$(git rev-parse --short "$BEFORE_REF^{commit}" 2>/dev/null || true)
    if [[ -z $BEFORE_COMMIT ]]; then
        echo "bench: BEFORE_REF $BEFORE_REF is not a commit here: the before-and-after step is skipped" >&2
    else
        if [[ ! -d $BEFORE_DIR/src ]]; then
            git worktree add --force --detach "$BEFORE_DIR/src" "$BEFORE_COMMIT" >&2
        else
            git -C "$BEFORE_DIR/src" checkout --quiet --detach "$BEFORE_COMMIT"
        fi
        $CARGO build --release --bin goserver --manifest-path "$BEFORE_DIR/src/Cargo.toml" \
            --target-dir "$BEFORE_DIR/target" >&2
        BEFORE_SERVER=$BEFORE_DIR/target/release/goserver
    fi
fi

LOG=$(mktemp -t goserver-bench.XXXXXX)
SERVER_PID=
BEFORE_PID=
cleanup() {
    if [[ -n "$BEFORE_PID" ]]; then kill "$BEFORE_PID" 2>/dev/null || true; fi
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
    fi
    rm -f "$LOG"
}
trap cleanup EXIT INT TERM

start_server() {
    # A free port of its own for each front end and the web board (the defaults, the
    # GO! port + 1, 2 and 3, may be taken).
    PORT=$("$LOADGEN" free-port)
    SPORT=$("$LOADGEN" free-port)
    BPORT=$("$LOADGEN" free-port)
    WPORT=$("$LOADGEN" free-port)
    # Room for HOLD_CLIENTS plus stragglers of earlier steps.
    "$SERVER" --host 127.0.0.1 --port "$PORT" --spectrangle-port "$SPORT" --bkgo-port "$BPORT" \
        --web-port "$WPORT" --no-console --log-level warn \
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
BEFORE_ADDR=
if [[ -n $BEFORE_SERVER ]]; then
    BEFORE_PORT=$("$LOADGEN" free-port)
    "$BEFORE_SERVER" --host 127.0.0.1 --port "$BEFORE_PORT" --spectrangle-port off --bkgo-port off \
        --web-port off --no-console --log-level warn 2>/dev/null </dev/null &
    BEFORE_PID=$!
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$BEFORE_PORT") 2>/dev/null; then
            BEFORE_ADDR=127.0.0.1:$BEFORE_PORT
            break
        fi
        sleep 0.05
    done
    [[ -n $BEFORE_ADDR ]] || echo "bench: the server before ($BEFORE_COMMIT) did not start" >&2
fi
GAME_ARGS=(--addr "$ADDR" --moves "$MOVES" --size "$SIZE")
SECONDS=0

# field <result line> <key>
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "na" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# count <result line> <key>: a count, 0 when the line lacks it.
count() { local v; v=$(field "$1" "$2"); echo "${v:-0}"; }
# whole <number>: rounded, "na" when missing.
whole() { awk -v v="$1" 'BEGIN { if (v == "") print "na"; else printf "%.0f", v }'; }

# The floors answer each 20-byte line with a line the size of an ACKNOWLEDGE_MOVE on
# this board ("ACKNOWLEDGE_MOVE+<id>+<index>;<c>+PLAYING;<c>;" and one digit a point).
REPLY_LEN=$((38 + SIZE * SIZE))
FLOOR_ARGS=(--reply-len "$REPLY_LEN")
# Per round: ratios to each floor (PP_* 1 game p50, TP_* 64 games moves/s, P99_* 64
# games p99), the server's own figures, and pairing p50s.
PP_E=() TP_E=() P99_E=() PP_R=() TP_R=() P99_R=()
G1_P50=() G64_OPS=() R64_OPS=() PAIR1=() PAIR64=()
TP_BEFORE=() B64_OPS=()
GAME_ERRORS=0 PAIR_ERRORS=0 EXIT_UNANSWERED=0
for round in $(seq "$ROUNDS"); do
    run echo1   "$LOADGEN" echo  --pairs 1 --rounds "$ECHO_ROUNDS" "${FLOOR_ARGS[@]}"
    run relay1  "$LOADGEN" relay --pairs 1 --rounds "$ECHO_ROUNDS" "${FLOOR_ARGS[@]}"
    run game1   "$LOADGEN" games "${GAME_ARGS[@]}" --games "$PP_GAMES" --concurrent 1 --prefix "p${round}_" --timeout 120
    run echo64  "$LOADGEN" echo  --pairs 64 --rounds "$((ECHO_ROUNDS / 4))" "${FLOOR_ARGS[@]}"
    run relay64 "$LOADGEN" relay --pairs 64 --rounds "$((ECHO_ROUNDS / 4))" "${FLOOR_ARGS[@]}"
    run game64  "$LOADGEN" games "${GAME_ARGS[@]}" --games "$PAR_GAMES" --concurrent 64 --prefix "q${round}_" --timeout 120
    if [[ -n $BEFORE_ADDR ]]; then
        run game64_before "$LOADGEN" games --addr "$BEFORE_ADDR" --moves "$MOVES" --size "$SIZE" \
            --games "$PAR_GAMES" --concurrent 64 --prefix "b${round}_" --timeout 120
        TP_BEFORE+=("$(ratio "$(field "$R_game64_before" ops_per_s)" "$(field "$R_relay64" ops_per_s)")")
        B64_OPS+=("$(whole "$(field "$R_game64_before" ops_per_s)")")
        GAME_ERRORS=$((GAME_ERRORS + $(count "$R_game64_before" errors)))
    fi
    run pair1   "$LOADGEN" pairing --addr "$ADDR" --size "$SIZE" --games "$PAIR_GAMES" --concurrent 1 --prefix "m${round}_"
    run pair64  "$LOADGEN" pairing --addr "$ADDR" --size "$SIZE" --games "$PAIR64_GAMES" --concurrent 64 --prefix "n${round}_"
    PP_E+=("$(ratio "$(field "$R_game1" p50)" "$(field "$R_echo1" p50)")")
    PP_R+=("$(ratio "$(field "$R_game1" p50)" "$(field "$R_relay1" p50)")")
    TP_E+=("$(ratio "$(field "$R_game64" ops_per_s)" "$(field "$R_echo64" ops_per_s)")")
    TP_R+=("$(ratio "$(field "$R_game64" ops_per_s)" "$(field "$R_relay64" ops_per_s)")")
    P99_E+=("$(ratio "$(field "$R_game64" p99)" "$(field "$R_echo64" p99)")")
    P99_R+=("$(ratio "$(field "$R_game64" p99)" "$(field "$R_relay64" p99)")")
    G1_P50+=("$(field "$R_game1" p50)")
    G64_OPS+=("$(whole "$(field "$R_game64" ops_per_s)")")
    R64_OPS+=("$(whole "$(field "$R_relay64" ops_per_s)")")
    PAIR1+=("$(field "$R_pair1" p50)")
    PAIR64+=("$(field "$R_pair64" p50)")
    GAME_ERRORS=$((GAME_ERRORS + $(count "$R_game1" errors) + $(count "$R_game64" errors)))
    PAIR_ERRORS=$((PAIR_ERRORS + $(count "$R_pair1" errors) + $(count "$R_pair64" errors)))
    EXIT_UNANSWERED=$((EXIT_UNANSWERED + $(count "$R_pair1" exit_unanswered) + $(count "$R_pair64" exit_unanswered)))
done
if [[ -n "$BEFORE_PID" ]]; then
    kill "$BEFORE_PID" 2>/dev/null || true
    wait "$BEFORE_PID" 2>/dev/null || true
    BEFORE_PID=
fi
sleep 1 # let the previous clients' threads go
run hold   "$LOADGEN" hold --addr "$ADDR" --clients "$HOLD_CLIENTS" --server-pid "$SERVER_PID" \
    --hold-secs "$HOLD_SECS" --timeout 90
SERVER_WARNINGS=$(grep -c 'WARN\|ERROR' "$LOG" || true)
FIRST_WARNING=$(grep -m1 'WARN\|ERROR' "$LOG" | sed 's/^[^ ]* //' || true)

# 5. Floods (issue 18): in each front end, on a fresh server, clients send valid lines
# as fast as TCP lets them for FLOOD_SECS while a neighbour plays; the neighbour's
# latency and the server's resident memory.
stop_server() {
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
}
for front in go spectrangle bkgo; do
    stop_server
    start_server
    case $front in
        go) port=$PORT ;;
        spectrangle) port=$SPORT ;;
        bkgo) port=$BPORT ;;
    esac
    run "flood_$front" "$LOADGEN" flood --front "$front" --addr "127.0.0.1:$port" \
        --seconds "$FLOOD_SECS" --server-pid "$SERVER_PID"
done

# 6. The web board (issue 20, WEB.md): 100 event-stream viewers on one game, their
# delay after each move (moves 50 ms apart); then 64 games at once with and without 100
# viewers spread over them, WEB_ROUNDS alternating rounds on fresh servers.
stop_server
start_server
run web_viewers "$LOADGEN" viewers --addr "127.0.0.1:$PORT" --web "127.0.0.1:$WPORT" \
    --viewers 100 --moves 100
WEB_PLAIN=() WEB_WATCHED=() WEB_RATIO=()
# 64 games at once, five in a row each (a few seconds: one wave is too short to
# measure on a busy machine); each viewer follows its slot's games from one to the next.
WEB_GAME_ARGS=(--games 320 --concurrent 64 --moves 300 --size 19 --timeout 120)
for round in $(seq "$WEB_ROUNDS"); do
    stop_server
    start_server
    run web_plain "$LOADGEN" games --addr "127.0.0.1:$PORT" "${WEB_GAME_ARGS[@]}" --prefix "w${round}_"
    stop_server
    start_server
    "$LOADGEN" watch --web "127.0.0.1:$WPORT" --viewers 100 --games 64 --seconds 60 >/dev/null 2>&1 &
    WATCH_PID=$!
    sleep 0.3
    run web_watched "$LOADGEN" games --addr "127.0.0.1:$PORT" "${WEB_GAME_ARGS[@]}" --prefix "v${round}_"
    kill "$WATCH_PID" 2>/dev/null || true
    wait "$WATCH_PID" 2>/dev/null || true
    WEB_PLAIN+=("$(whole "$(field "$R_web_plain" ops_per_s)")")
    WEB_WATCHED+=("$(whole "$(field "$R_web_watched" ops_per_s)")")
    WEB_RATIO+=("$(ratio "$(field "$R_web_watched" ops_per_s)" "$(field "$R_web_plain" ops_per_s)")")
done
stop_server
# 7. The practice bot. Its speed on one core, then GNU Go against it: a server of its
# own seats the bot in every game a client leads (--bot-after 1), and the bridge leads
# one game after another as GNU Go, colours alternating.
echo "== bot speed: cargo bench --bench bot" >&2
BOT_SPEED=$($CARGO bench --bench bot 2>/dev/null | sed -n '/^board/,$p' || true)
echo "$BOT_SPEED" >&2
BOT_MATCH=""
R_gnugo="RESULT mode=skipped"
if ((BOT_GAMES > 0)) && [[ -x $GNUGO ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    PORT=$("$LOADGEN" free-port)
    # GO! alone: no other front end, no web board (whose default port, GO!'s + 3,
    # may be taken after the steps above).
    "$SERVER" --host 127.0.0.1 --port "$PORT" --spectrangle-port off --bkgo-port off \
        --web-port off --no-console --log-level warn --bot-after 1 --bot-level "$BOT_LEVEL" \
        --bot-think-ms "$BOT_THINK_MS" --komi "$BOT_KOMI" 2>"$LOG" </dev/null &
    SERVER_PID=$!
    BOT_SERVER_UP=0
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then BOT_SERVER_UP=1; break; fi
        sleep 0.05
    done
    if ((BOT_SERVER_UP == 0)); then
        echo "bench: the bot's server did not start:" >&2
        cat "$LOG" >&2
    fi
    echo "== bot: $LOADGEN gnugo-match, $BOT_GAMES games" >&2
    # A game lasts about two minutes at 1 s a move; ten minutes each at most.
    BOT_MATCH=$(timeout $((BOT_GAMES * 600)) "$LOADGEN" gnugo-match --addr "127.0.0.1:$PORT" \
        --games "$BOT_GAMES" --gnugo "$GNUGO" --gnugo-level "$GNUGO_LEVEL" --size "$BOT_SIZE" \
        --komi "$BOT_KOMI" 2>&1 | tee /dev/stderr) || true
    R_gnugo=$(grep "^RESULT " <<<"$BOT_MATCH" | tail -1 || true)
    [[ -n "$R_gnugo" ]] || R_gnugo="RESULT mode=failed errors=1"
elif ((BOT_GAMES > 0)); then
    R_gnugo="RESULT mode=skipped reason=no-gnugo"
fi

verdict() { if [[ "$1" == 1 ]]; then echo met; else echo "**missed**"; fi; }
# spread <values...>: "min–max" of the rounds.
spread() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "–" hi }'; }
# check <median> <errors> <condition on r>: 1 if there is a median, no error, and
# the condition holds for r = the median.
check() { awk -v r="$1" -v e="$2" "BEGIN { print (r != \"na\" && r != \"\" && e == 0 && ($3)) ? 1 : 0 }"; }
h=$R_hold
pp_e=$(median "${PP_E[@]}") pp_r=$(median "${PP_R[@]}")
tp_e=$(median "${TP_E[@]}") tp_r=$(median "${TP_R[@]}")
p99_e=$(median "${P99_E[@]}") p99_r=$(median "${P99_R[@]}")
pair1=$(median "${PAIR1[@]}") pair64=$(median "${PAIR64[@]}")
pp_e_ok=$(check "$pp_e" "$GAME_ERRORS" 'r <= 2')
tp_e_ok=$(awk -v r="$tp_e" -v p="$p99_e" -v e="$GAME_ERRORS" \
    'BEGIN { print (r != "na" && p != "na" && r >= 0.5 && p <= 5 && e == 0) ? 1 : 0 }')
pp_r_ok=$(check "$pp_r" "$GAME_ERRORS" 'r <= 2')
tp_r_ok=$(check "$tp_r" "$GAME_ERRORS" 'r >= 0.8')
pair1_ok=$(check "$pair1" "$PAIR_ERRORS" 'r < 200')
pair64_ok=$(check "$pair64" "$PAIR_ERRORS" 'r < 1000')
rss_mb=$(awk -v k="$(field "$h" rss_kb)" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.0f", k / 1024; else print "na" }')
hold_ok=$(awk -v l="$(field "$h" live)" -v n="$HOLD_CLIENTS" -v m="$rss_mb" -v e="$(field "$h" errors)" \
    'BEGIN { print (l == n && m != "na" && m < 300 && e == 0) ? 1 : 0 }')

row() { # label result: moves per second for the move runs
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$(field "$2" p50)" "$(field "$2" p90)" \
        "$(field "$2" p99)" "$(field "$2" p999)" "$(field "$2" max)" "$(field "$2" ops_per_s)" \
        "$(field "$2" games_per_s)" "$(field "$2" errors)"
}
pairing_row() { # label result: games per second only
    printf '| %s | %s | %s | %s | %s | %s |  | %s | %s |\n' "$1" "$(field "$2" p50)" "$(field "$2" p90)" \
        "$(field "$2" p99)" "$(field "$2" p999)" "$(field "$2" max)" "$(field "$2" ops_per_s)" "$(field "$2" errors)"
}

{
    echo "# goserver benchmark results"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(uname -r), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet -- . ':!docs/performance.md' ':!bench-results.md' 2>/dev/null || echo ' (dirty)'),"
    echo "produced by \`scripts/bench.sh\` (MOVES=$MOVES SIZE=$SIZE PP_GAMES=$PP_GAMES PAR_GAMES=$PAR_GAMES PAIR_GAMES=$PAIR_GAMES PAIR64_GAMES=$PAIR64_GAMES HOLD_CLIENTS=$HOLD_CLIENTS) in ${SECONDS}s."
    echo "Latency in µs. Moves: MOVE -> own ACKNOWLEDGE_MOVE (floors: a 20-byte line -> a ${REPLY_LEN}-byte reply, the sizes of MOVE and ACKNOWLEDGE_MOVE; the relay also copies it to the partner, as the server does); rate is moves (round trips) per second."
    echo "Pairing: the leader's connect -> both players hold ACKNOWLEDGE_CONFIG (connect, HANDSHAKE, REQUEST_CONFIG, the partner's connect and HANDSHAKE, SET_CONFIG), per game."
    echo
    echo "The table shows the last of $ROUNDS rounds; the verdicts use the median over all rounds."
    echo
    echo "| run | p50 | p90 | p99 | p99.9 | max | moves/s | games/s | errors |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    row "echo floor, 1 pair" "$R_echo1"
    row "relay floor, 1 pair" "$R_relay1"
    row "server, 1 game ping-pong" "$R_game1"
    row "echo floor, 64 pairs (128 conns)" "$R_echo64"
    row "relay floor, 64 pairs (128 conns)" "$R_relay64"
    row "server, 64 games at once ($PAR_GAMES in all)" "$R_game64"
    if [[ -n ${R_game64_before:-} ]]; then
        row "server before ($BEFORE_COMMIT), 64 games at once ($PAR_GAMES in all)" "$R_game64_before"
    fi
    pairing_row "server, pairing 1 game at a time ($PAIR_GAMES in all)" "$R_pair1"
    pairing_row "server, pairing 64 games at once ($PAIR64_GAMES in all)" "$R_pair64"
    echo
    echo "| target | measured | verdict |"
    echo "| --- | --- | --- |"
    echo "| 64 games moves/s ≥ 0.8x relay round trips/s (issue 12) | median ${tp_r}x (rounds: ${TP_R[*]}); medians: server $(median "${G64_OPS[@]}") moves/s, relay $(median "${R64_OPS[@]}")/s; p99 median ${p99_r}x relay p99 (rounds: ${P99_R[*]}) | $(verdict "$tp_r_ok") |"
    if ((${#TP_BEFORE[@]} > 0)); then
        tp_b=$(median "${TP_BEFORE[@]}")
        before_ok=$(check "$tp_r" "$GAME_ERRORS" 'r >= 0.67')
        echo "| 64 games moves/s ≥ 0.67x relay, before and after in one run (issue 27; goal 0.8x) | after (this build): median ${tp_r}x; before ($BEFORE_COMMIT): median ${tp_b}x (rounds: ${TP_BEFORE[*]}); medians: before $(median "${B64_OPS[@]}") moves/s, after $(median "${G64_OPS[@]}") moves/s, relay $(median "${R64_OPS[@]}")/s | $(verdict "$before_ok") |"
    fi
    echo "| 1 game p50 ≤ 2x relay p50, stable (issue 12) | median ${pp_r}x, spread $(spread "${PP_R[@]}")x (rounds: ${PP_R[*]}); server p50 µs by round: ${G1_P50[*]} | $(verdict "$pp_r_ok") |"
    echo "| pairing p50 < 200 µs, 1 game at a time (issue 12) | median ${pair1} µs, spread $(spread "${PAIR1[@]}") (rounds: ${PAIR1[*]}) | $(verdict "$pair1_ok") |"
    echo "| pairing p50 < 1 ms, 64 games at once (issue 12) | median ${pair64} µs, spread $(spread "${PAIR64[@]}") (rounds: ${PAIR64[*]}) | $(verdict "$pair64_ok") |"
    echo "| $HOLD_CLIENTS clients live, RSS < 300 MB, no errors | $(field "$h" live) live in $(field "$h" ramp_secs)s, RSS ${rss_mb} MB, $(field "$h" threads) threads, $(field "$h" fds) fds, $(field "$h" maps) mappings, $(field "$h" errors) errors | $(verdict "$hold_ok") |"
    echo "| 1 game p50 ≤ 2x echo p50 (issue 6) | median ${pp_e}x (rounds: ${PP_E[*]}) | $(verdict "$pp_e_ok") |"
    echo "| 64 games moves/s ≥ 0.5x echo round trips/s; p99 ≤ 5x echo p99 (issue 6) | median ${tp_e}x (rounds: ${TP_E[*]}); p99 median ${p99_e}x (rounds: ${P99_E[*]}) | $(verdict "$tp_e_ok") |"
    echo
    echo "Errors in the game runs: $GAME_ERRORS; in the pairing runs: $PAIR_ERRORS (EXITs the server did not answer by closing within 1 s: $EXIT_UNANSWERED)."
    echo
    echo "## The web board (issue 20)"
    echo
    v=$R_web_viewers
    web_ratio=$(median "${WEB_RATIO[@]}")
    viewers_ok=$(awk -v p="$(field "$v" p99)" -v e="$(field "$v" errors)" -v n="$(field "$v" n)" \
        'BEGIN { print (p != "" && n > 0 && p <= 50000 && e == 0) ? 1 : 0 }')
    web_ratio_ok=$(check "$web_ratio" 0 'r >= 0.9')
    echo "| target | measured | verdict |"
    echo "| --- | --- | --- |"
    echo "| 100 viewers on one game see each move within p99 ≤ 50 ms of the mover's ACKNOWLEDGE_MOVE (moves 50 ms apart, 19x19) | p50 $(field "$v" p50) µs, p99 $(field "$v" p99) µs, max $(field "$v" max) µs over $(field "$v" n) (viewer, move) pairs, errors $(field "$v" errors) | $(verdict "$viewers_ok") |"
    echo "| 64 games (five in a row each) with 100 viewers spread over them ≥ 0.9x the moves/s without | median ${web_ratio}x over $WEB_ROUNDS rounds (rounds: ${WEB_RATIO[*]}); moves/s without: ${WEB_PLAIN[*]}; with: ${WEB_WATCHED[*]} | $(verdict "$web_ratio_ok") |"
    echo
    echo "## Floods (issue 18)"
    echo
    echo "Each front end on a fresh server for ${FLOOD_SECS} s: flooders send valid lines as fast as TCP takes them while a neighbour plays one move every 50 ms."
    echo "GO!: 8 games whose players answer each other at once, and 2 clients sending 3,000 refused lines each (paced); latency: the neighbour's MOVE -> its ACKNOWLEDGE_MOVE."
    echo "Spectrangle: a table of 3, two of them flooding CHAT; latency: the neighbour's move -> its UPDATE. Bkgo: 6 members, 3 watchers flooding Message:; latency: a Place: -> the last of the 6 members has it."
    echo "Resident memory (RSS) of the server at the start, the highest sampled (every 200 ms), and at the end."
    echo
    echo "| front end | lines flooded | per second | neighbour moves | p50 µs | p99 µs | max µs | RSS start → max → end (MB) | errors | p99 ≤ 200 ms, RSS growth < 32 MB |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |"
    for front in go spectrangle bkgo; do
        var="R_flood_$front"
        r=${!var}
        mb() { awk -v k="$(field "$r" "$1")" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f", k / 1024; else print "na" }'; }
        ok=$(awk -v p="$(field "$r" p99)" -v s="$(field "$r" rss_start_kb)" -v m="$(field "$r" rss_max_kb)" -v e="$(field "$r" errors)" -v n="$(field "$r" n)" \
            'BEGIN { print (p != "" && n > 0 && p <= 200000 && m - s < 32768 && e == 0) ? 1 : 0 }')
        printf '| %s | %s | %s | %s | %s | %s | %s | %s → %s → %s | %s | %s |\n' "$front" "$(field "$r" flood_lines)" \
            "$(field "$r" flood_per_s)" "$(field "$r" n)" "$(field "$r" p50)" "$(field "$r" p99)" "$(field "$r" max)" \
            "$(mb rss_start_kb)" "$(mb rss_max_kb)" "$(mb rss_end_kb)" "$(field "$r" errors)" "$(verdict "$ok")"
    done
    echo "Server warnings/errors logged: $SERVER_WARNINGS${FIRST_WARNING:+ (first: \`$FIRST_WARNING\`)}"
    echo
    echo "## The practice bot"
    echo
    echo "Simulations per second on one core (\`cargo bench --bench bot\`; a simulation is a walk down the search tree and a playout to the end):"
    echo
    echo '```'
    echo "$BOT_SPEED"
    echo '```'
    echo
    if [[ $(field "$R_gnugo" mode) == gnugo-match ]]; then
        bot_rate=$(awk -v r="$(field "$R_gnugo" win_rate)" 'BEGIN { printf "%.0f", r * 100 }')
        bot_ok=$(awk -v r="$(field "$R_gnugo" win_rate)" -v e="$(field "$R_gnugo" errors)" -v g="$(field "$R_gnugo" games)" \
            'BEGIN { print (r >= 0.5 && e == 0 && g >= 20) ? 1 : 0 }')
        echo "GNU Go 3.8 (\`--level $GNUGO_LEVEL --chinese-rules --capture-all-dead\`) against GoBot level $BOT_LEVEL at \`--bot-think-ms $BOT_THINK_MS\`, ${BOT_SIZE}x${BOT_SIZE}, komi $BOT_KOMI, colours alternating, through the GO! protocol (\`loadgen gnugo-match\`); scores are the server's area scores (black;white), GNU Go's own count of the final position beside them:"
        echo
        echo "| target | measured | verdict |"
        echo "| --- | --- | --- |"
        echo "| the bot wins ≥ 50% of ≥ 20 games against GNU Go level 10 (level 5, 1000 ms, 9x9, komi 7) | won $(field "$R_gnugo" bot_wins) of $(field "$R_gnugo" games) (${bot_rate}%), GNU Go $(field "$R_gnugo" gnugo_wins), draws $(field "$R_gnugo" draws), errors $(field "$R_gnugo" errors), in $(field "$R_gnugo" secs) s | $(verdict "$bot_ok") |"
        echo
        echo '```'
        grep -E '^(GAME |the bot won)' <<<"$BOT_MATCH" | sed 's/ | GAME_FINISHED+[0-9]*+[^+]*+\([^+]*\)+\(.*\)/ score=\1 (\2)/'
        echo '```'
    else
        echo "GNU Go match: not run ($(field "$R_gnugo" reason)${BOT_GAMES:+, BOT_GAMES=$BOT_GAMES})."
    fi
} >"$OUT"

cat "$OUT"

# Keep docs/performance.md's figures current: everything after the title line of $OUT
# goes between the markers.
if grep -q '<!-- bench-results:start -->' docs/performance.md; then
    awk -v results="$OUT" '
        /<!-- bench-results:start -->/ {
            print
            while ((getline line < results) > 0) if (seen++) print line
            skipping = 1
            next
        }
        /<!-- bench-results:end -->/ { skipping = 0 }
        !skipping
    ' docs/performance.md >docs/performance.md.new && mv docs/performance.md.new docs/performance.md
    echo "docs/performance.md figures updated" >&2
fi
