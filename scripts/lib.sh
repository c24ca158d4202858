# shellcheck shell=bash
# Shared helpers for the scenario scripts (scripts/test-*.sh). Source it, don't run it.
#
# A scenario starts a fresh server on a free port, connects clients with `nc` (exactly as
# a student would by hand), sends protocol lines and expects the exact lines the server
# answers. Every wait has a timeout: a script fails with a clear message, it never hangs.
#
#   start_server [goserver flags...]   fresh server on --port 0 --no-console; sets PORT
#                                      (GO!'s port; every front end gets a free port)
#   port_of PROTOCOL VAR               set VAR to a front end's port: port_of Bkgo BKGO
#   start_console_server [flags...]    same, but with the operator console on stdin/stdout
#   start_example NAME                 the example program NAME (examples/NAME.rs) instead
#   connect NAME [PORT]                open an nc client called NAME (a label, not a login),
#                                      to PORT (default: GO!'s port)
#   send NAME LINE                     send LINE plus a newline
#   send_raw NAME FORMAT               send bytes as printf(1) FORMAT, no newline added
#   expect NAME LINE                   the next line NAME receives must be exactly LINE
#   expect_both A B LINE               the next line of both clients must be LINE
#   expect_match NAME REGEX            the next line must match the (extended) REGEX;
#                                      the line is left in $LINE
#   expect_closed NAME                 the server must close NAME's connection, no more lines
#   expect_silence NAME [SECONDS]      NAME must receive nothing for a while (default 0.5 s)
#   disconnect NAME                    drop NAME's connection without a word (kill its nc)
#   console LINE                       type LINE into the console
#   console_eof                        end the console's input (the server keeps serving)
#   expect_console_contains TEXT       read console output until a line contains TEXT
#   console_poll COMMAND REGEX         repeat COMMAND until a line of its output matches
#   expect_log TEXT                    the server's log (stderr) shows TEXT within the timeout
#   stop_server                        SIGTERM, wait; fails unless it exits 0 within 10 s
#   expect_server_exit                 the server stops by itself, exit 0, within 10 s
#   pass                               print "PASS <script>" (the last line of a scenario)
#
# Environment: GOSERVER (server binary, default target/release/goserver), EXPECT_TIMEOUT
# (seconds per expected line, default 20: generous for a slow, busy machine, and no cost
# when the line comes, as every wait returns as soon as it does), SCRIPT_TIMEOUT (whole
# script, default 180). The windows of expect_silence are their own (0.5 s by default).

set -uo pipefail
# A write to a client whose connection is gone must fail with a message, not kill us.
trap '' PIPE

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GOSERVER=${GOSERVER:-$ROOT/target/release/goserver}
EXPECT_TIMEOUT=${EXPECT_TIMEOUT:-20}
SCRIPT_TIMEOUT=${SCRIPT_TIMEOUT:-180}
SCRIPT=$(basename "$0")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/goserver-${SCRIPT%.sh}.XXXXXX")

SERVER_PID=
PORT=
CONSOLE_IN=
CONSOLE_OUT=
WATCHDOG_PID=
LINE=
declare -A CLIENT_PID=() CLIENT_IN=() CLIENT_OUT=()

for tool in nc timeout; do
    command -v "$tool" >/dev/null || {
        echo "FAIL $SCRIPT: '$tool' is not installed (apt-get install netcat-openbsd coreutils)" >&2
        exit 1
    }
done
if [[ ! -x $GOSERVER ]]; then
    echo "FAIL $SCRIPT: no server binary at $GOSERVER (run: cargo build --release)" >&2
    exit 1
fi

# ---------------------------------------------------------------------------------------
# Failing and cleaning up

# fail MESSAGE...: print why, the end of the server log, and exit 1 (cleanup runs on EXIT).
fail() {
    {
        echo "FAIL $SCRIPT: $*"
        if [[ -s $WORK/server.log ]]; then
            echo "--- last lines of the server log ($WORK/server.log):"
            tail -n 15 "$WORK/server.log" | sed 's/^/    /'
        fi
    } >&2
    KEEP_WORK=1
    exit 1
}

cleanup() {
    local name
    for name in "${!CLIENT_PID[@]}"; do
        kill "${CLIENT_PID[$name]}" 2>/dev/null
    done
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        local i
        for ((i = 0; i < 50; i++)); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$SERVER_PID" 2>/dev/null
    fi
    [[ -n $WATCHDOG_PID ]] && kill "$WATCHDOG_PID" 2>/dev/null
    wait 2>/dev/null
    if [[ -n ${KEEP_WORK:-} ]]; then
        echo "    (files kept in $WORK)" >&2
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap 'fail "interrupted"' INT
trap 'fail "timed out: the whole script took more than $SCRIPT_TIMEOUT s"' TERM

# The watchdog: whatever happens, the script ends within SCRIPT_TIMEOUT seconds.
(
    sleep "$SCRIPT_TIMEOUT" &
    trap 'kill $! 2>/dev/null; exit 0' TERM
    wait $! && kill -TERM $$
) </dev/null >/dev/null 2>&1 &
WATCHDOG_PID=$!

# _close_our_fds: in a child about to exec, close the fifo ends this shell holds, so that
# an end of input or a closed connection is seen as such (fds are inherited otherwise).
_close_our_fds() {
    local fd
    for fd in ${CONSOLE_IN:-} ${CONSOLE_OUT:-} "${CLIENT_IN[@]}" "${CLIENT_OUT[@]}"; do
        exec {fd}>&-
    done
    return 0
}

# ---------------------------------------------------------------------------------------
# The server

# _launch STDIN STDOUT LABEL PROGRAM ARGS...: start PROGRAM, wait for its "listening on"
# line: `listening on <ip>:<port> (LABEL)` (goserver's GO! line comes first, then one per
# other front end that is on).
_launch() {
    local stdin=$1 stdout=$2 label=$3 program=$4
    shift 4
    [[ -z $SERVER_PID ]] || fail "start_server called twice"
    # Made before the server starts, so that reading it never races its creation.
    : >"$WORK/server.log"
    (_close_our_fds && exec "$program" "$@" <"$stdin" >"$stdout" 2>"$WORK/server.log") &
    SERVER_PID=$!
    local i
    for ((i = 0; i < EXPECT_TIMEOUT * 10; i++)); do
        PORT=$(sed -n "s/.*listening on .*:\([0-9][0-9]*\) ($label)\$/\1/p" "$WORK/server.log" | head -n 1)
        [[ -n $PORT ]] && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || fail "the server exited before listening"
        sleep 0.1
    done
    fail "no 'listening on' line in the server log within $EXPECT_TIMEOUT s"
}

# start_server [FLAGS...]: a fresh server without console on a free port; sets PORT.
start_server() {
    _launch /dev/null "$WORK/server.out" 'GO!' "$GOSERVER" --port 0 --no-console "$@"
}

# start_example NAME: the example program target/release/examples/NAME (built by `make
# test`) instead of goserver, on a free port (its line "listening on ... (NAME)"); sets
# PORT.
start_example() {
    local program=$ROOT/target/release/examples/$1
    [[ -x $program ]] || fail "no example binary at $program (run: cargo build --release --examples)"
    _launch /dev/null "$WORK/server.out" "$1" "$program" 0
}

# start_console_server [FLAGS...]: a fresh server whose console reads the lines given to
# `console` (a pipe, as with `printf 'games\n' | goserver`) and answers on stdout.
start_console_server() {
    rm -f "$WORK/console.in" "$WORK/console.out"
    mkfifo "$WORK/console.in" "$WORK/console.out"
    # Opened read-write (Linux) so that neither open waits for the server's side. Closing
    # CONSOLE_IN (console_eof) is the end of the console's input.
    exec {CONSOLE_IN}<>"$WORK/console.in" {CONSOLE_OUT}<>"$WORK/console.out"
    _launch "$WORK/console.in" "$WORK/console.out" 'GO!' "$GOSERVER" --port 0 "$@"
}

# port_of PROTOCOL VAR: sets VAR to the port of the front end the log names PROTOCOL,
# from its line "listening on <ip>:<port> (PROTOCOL)" (printed at start, after GO!'s).
port_of() {
    local i port
    for ((i = 0; i < EXPECT_TIMEOUT * 10; i++)); do
        port=$(sed -n "s/.*listening on .*:\([0-9][0-9]*\) ($1)\$/\1/p" "$WORK/server.log" | head -n 1)
        if [[ -n $port ]]; then
            printf -v "$2" '%s' "$port"
            return 0
        fi
        sleep 0.1
    done
    fail "no 'listening on ... ($1)' line in the server log within $EXPECT_TIMEOUT s"
}

# stop_server: SIGTERM (what Ctrl-C does); the server must exit 0 within 10 s.
stop_server() {
    [[ -n $SERVER_PID ]] || fail "stop_server: no server running"
    kill -TERM "$SERVER_PID" 2>/dev/null
    expect_server_exit
}

# expect_server_exit: the server stops by itself (e.g. the console's shutdown) within
# 10 s, with exit status 0.
expect_server_exit() {
    [[ -n $SERVER_PID ]] || fail "expect_server_exit: no server running"
    local i status
    for ((i = 0; i < 100; i++)); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -9 "$SERVER_PID" 2>/dev/null
        fail "the server did not stop within 10 s (killed with -9)"
    fi
    wait "$SERVER_PID"
    status=$?
    SERVER_PID=
    ((status == 0)) || fail "the server exited with status $status, expected 0"
}

# ---------------------------------------------------------------------------------------
# Clients

# connect NAME [PORT]: a new nc connection to the server (to PORT, by default GO!'s),
# known to the other helpers as NAME.
connect() {
    local name=$1 port=${2:-$PORT}
    [[ -n $port ]] || fail "connect $name: start the server first"
    [[ -z ${CLIENT_PID[$name]:-} ]] || fail "connect $name: already connected"
    mkfifo "$WORK/$name.in" "$WORK/$name.out"
    (_close_our_fds && exec nc 127.0.0.1 "$port" <"$WORK/$name.in" >"$WORK/$name.out" 2>"$WORK/$name.err") &
    CLIENT_PID[$name]=$!
    local fd_in fd_out
    exec {fd_in}>"$WORK/$name.in" {fd_out}<"$WORK/$name.out"
    CLIENT_IN[$name]=$fd_in
    CLIENT_OUT[$name]=$fd_out
}

# start_game LEADER LEADER_NAME PARTNER PARTNER_NAME SIZE: connects clients LEADER and
# PARTNER, which handshake as LEADER_NAME and PARTNER_NAME; the leader leads game 1 as
# black on a SIZE board, and both have their ACKNOWLEDGE_CONFIG. For scripts whose
# lesson starts after the opening (test-full-game.sh spells the opening out).
start_game() {
    local leader=$1 leader_name=$2 partner=$3 partner_name=$4 size=$5
    local board
    board=$(printf '0%.0s' $(seq $((size * size))))
    connect "$leader"
    send "$leader" "HANDSHAKE+$leader_name"
    expect "$leader" "ACKNOWLEDGE_HANDSHAKE+1+1"
    expect_match "$leader" "REQUEST_CONFIG\+.*"
    connect "$partner"
    send "$partner" "HANDSHAKE+$partner_name"
    expect "$partner" "ACKNOWLEDGE_HANDSHAKE+1+0"
    send "$leader" "SET_CONFIG+1+1+$size"
    expect "$leader" "ACKNOWLEDGE_CONFIG+$leader_name+1+$size+PLAYING;1;$board+$partner_name"
    expect "$partner" "ACKNOWLEDGE_CONFIG+$partner_name+2+$size+PLAYING;1;$board+$leader_name"
}

_client() {
    [[ -n ${CLIENT_PID[$1]:-} ]] || fail "no client called '$1' (connect it first)"
}

# send NAME LINE: LINE and a newline, as typed into nc.
send() {
    _client "$1"
    printf '%s\n' "$2" >&"${CLIENT_IN[$1]}" 2>/dev/null ||
        fail "$1: cannot send '$2': the connection is closed"
}

# send_raw NAME FORMAT: bytes as printf FORMAT (\n, \r, \xHH ...), nothing added.
send_raw() {
    _client "$1"
    # shellcheck disable=SC2059
    printf "$2" >&"${CLIENT_IN[$1]}" 2>/dev/null ||
        fail "$1: cannot send raw bytes: the connection is closed"
}

# _read NAME: the next line NAME receives into LINE; status 0 line, 1 closed, 2 timeout.
_read() {
    LINE=
    IFS= read -r -t "$EXPECT_TIMEOUT" -u "${CLIENT_OUT[$1]}" LINE
    local status=$?
    ((status == 0)) && return 0
    ((status > 128)) && return 2
    [[ -n $LINE ]] && return 0 # a last line without a newline
    return 1
}

# expect NAME LINE: the next line NAME receives is exactly LINE.
expect() {
    _client "$1"
    _read "$1"
    case $? in
    0) [[ $LINE == "$2" ]] && return 0
       fail "$1 expected:
    $2
  but received:
    $LINE" ;;
    1) fail "$1 expected:
    $2
  but the server closed the connection" ;;
    *) fail "$1 expected:
    $2
  but received nothing within $EXPECT_TIMEOUT s${LINE:+ (partial line: '$LINE')}" ;;
    esac
}

# expect_both A B LINE: a broadcast, e.g. ACKNOWLEDGE_MOVE, reaches both players.
expect_both() {
    expect "$1" "$3"
    expect "$2" "$3"
}

# expect_match NAME REGEX: the next line matches REGEX (whole line); it is left in LINE.
expect_match() {
    _client "$1"
    _read "$1"
    case $? in
    0) [[ $LINE =~ ^$2$ ]] && return 0
       fail "$1 expected a line matching:
    $2
  but received:
    $LINE" ;;
    1) fail "$1 expected a line matching '$2' but the server closed the connection" ;;
    *) fail "$1 expected a line matching '$2' but received nothing within $EXPECT_TIMEOUT s" ;;
    esac
}

# _server_closed NAME: true when the server has closed NAME's connection. nc itself keeps
# running until its stdin ends (it notices only when you type the next line), so we look
# at its socket instead: state 08 in /proc/net/tcp is CLOSE_WAIT, "the peer has closed".
_server_closed() {
    local pid=${CLIENT_PID[$1]} fd inode
    kill -0 "$pid" 2>/dev/null || return 0
    for fd in /proc/"$pid"/fd/*; do
        inode=$(readlink "$fd" 2>/dev/null) || continue
        [[ $inode == socket:* ]] || continue
        inode=${inode#socket:[}
        inode=${inode%]}
        cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
            awk -v inode="$inode" '$10 == inode && $4 == "08" { found = 1 } END { exit !found }' &&
            return 0
    done
    return 1
}

# expect_closed NAME: the server closes the connection without sending anything more.
expect_closed() {
    _client "$1"
    local deadline=$((SECONDS + EXPECT_TIMEOUT)) line status
    while ((SECONDS <= deadline)); do
        IFS= read -r -t 0.1 -u "${CLIENT_OUT[$1]}" line
        status=$?
        if ((status == 0)) || [[ -n $line ]]; then
            fail "$1 expected the server to close the connection, but received:
    $line"
        fi
        ((status <= 128)) && return 0 # end of output: nc is gone
        _server_closed "$1" && return 0
    done
    fail "$1 expected the server to close the connection within $EXPECT_TIMEOUT s, it is still open"
}

# expect_silence NAME [SECONDS]: nothing arrives (checks that a message went to one only).
expect_silence() {
    _client "$1"
    local line
    if IFS= read -r -t "${2:-0.5}" -u "${CLIENT_OUT[$1]}" line; then
        fail "$1 expected nothing, but received:
    $line"
    fi
    return 0
}

# disconnect NAME: the client vanishes (its nc is killed, the socket closes).
disconnect() {
    _client "$1"
    kill "${CLIENT_PID[$1]}" 2>/dev/null
    wait "${CLIENT_PID[$1]}" 2>/dev/null
    exec {CLIENT_IN[$1]}>&- {CLIENT_OUT[$1]}<&-
    unset "CLIENT_PID[$1]" "CLIENT_IN[$1]" "CLIENT_OUT[$1]"
}

# ---------------------------------------------------------------------------------------
# The console

# console LINE: type LINE into the operator console.
console() {
    [[ -n $CONSOLE_IN ]] || fail "console: start the server with start_console_server"
    printf '%s\n' "$1" >&"$CONSOLE_IN" 2>/dev/null || fail "console: cannot type '$1': stdin closed"
}

# console_eof: close the console's stdin (end of input; the server keeps serving).
console_eof() {
    exec {CONSOLE_IN}>&-
    CONSOLE_IN=
}

# expect_console_contains TEXT: console output lines are read (and skipped) until one
# contains TEXT; that line is left in LINE.
expect_console_contains() {
    local seen=() deadline=$((SECONDS + EXPECT_TIMEOUT))
    while ((SECONDS <= deadline)); do
        LINE=
        if IFS= read -r -t 1 -u "$CONSOLE_OUT" LINE; then
            [[ $LINE == *"$1"* ]] && return 0
            seen+=("$LINE")
        elif (($? <= 128)); then
            break # end of output: the server is gone
        fi
    done
    fail "the console was expected to print a line containing:
    $1
  but printed:
$(printf '    %s\n' "${seen[@]+"${seen[@]}"}")"
}

# console_poll COMMAND REGEX: type COMMAND again every 0.2 s until a line of its output
# matches REGEX (for views such as `games` that may lag a moment behind the game); that
# line is left in LINE and the rest of the output is skipped.
console_poll() {
    local deadline=$((SECONDS + EXPECT_TIMEOUT)) seen=() line
    while ((SECONDS <= deadline)); do
        console "$1"
        while IFS= read -r -t 0.2 -u "$CONSOLE_OUT" line; do
            if [[ $line =~ $2 ]]; then
                LINE=$line
                while IFS= read -r -t 0.2 -u "$CONSOLE_OUT" line; do :; done
                return 0
            fi
            seen+=("$line")
        done
    done
    fail "the console's '$1' was expected to print a line matching:
    $2
  but printed:
$(printf '    %s\n' "${seen[@]+"${seen[@]}"}" | tail -n 10)"
}

# expect_log TEXT: within EXPECT_TIMEOUT, a line of the server log (stderr) contains TEXT.
expect_log() {
    local deadline=$((SECONDS + EXPECT_TIMEOUT))
    while ((SECONDS <= deadline)); do
        grep -qF -- "$1" "$WORK/server.log" && return 0
        sleep 0.1
    done
    fail "the server log was expected to show: $1"
}

# ---------------------------------------------------------------------------------------

# pass: the last line of every scenario.
pass() {
    echo "PASS $SCRIPT"
}
