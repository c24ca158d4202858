#!/usr/bin/env bash
# The operator console: the server reads commands from stdin and answers on stdout (the
# log goes to stderr). On a terminal it is an interactive prompt; from a pipe, as here
# (like `printf 'games\n' | goserver`), it reads one command per line. At the end of the
# input the server keeps serving until SIGTERM/Ctrl-C or the `shutdown` command.
source "$(dirname "$0")/lib.sh"
start_console_server

console "help"
expect_console_contains "games"
expect_console_contains "shutdown"
console "games"
expect_console_contains "no games"
console "bogus"
expect_console_contains "unknown command 'bogus': type 'help' for the list of commands"

# A game in progress, seen from the console.
start_game ann Ann bob Bob 3   # Ann black, Bob white, 3x3
send ann "MOVE+1+Ann+4"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"

# `games` shows a summary each game publishes as it goes: it may lag a moment behind.
console_poll "games" "^1 +go +playing +Ann \(black\) vs Bob \(white\) +3x3 +1 +Bob \(white\) "
console "players"
expect_console_contains "Bob"
console "board 1"
expect_console_contains "last move: black B2 (index 4)"
expect_console_contains "to move: Bob (white)"

# kick: the operator disconnects a player; the opponent wins.
console "kick Ann"
expect_console_contains "kicked Ann"
expect_both ann bob "GAME_FINISHED+1+Bob+9;0+Ann was kicked by operator: Bob wins"
expect_closed ann

# The end of the console's input does not stop the server: it still serves.
console_eof
expect_log "console input ended; the server keeps serving"
connect cid
send cid "HANDSHAKE+Cid"
expect cid "ACKNOWLEDGE_HANDSHAKE+2+1"

stop_server

# The shutdown command: every game in progress is finished, every connection closed,
# and the server exits 0.
start_console_server
connect dan
send dan "HANDSHAKE+Dan"
expect dan "ACKNOWLEDGE_HANDSHAKE+1+1"
expect_match dan "REQUEST_CONFIG\+.*"
connect eve
send eve "HANDSHAKE+Eve"
expect eve "ACKNOWLEDGE_HANDSHAKE+1+0"
send dan "SET_CONFIG+1+2+2"
expect dan "ACKNOWLEDGE_CONFIG+Dan+2+2+PLAYING;1;0000+Eve"
expect eve "ACKNOWLEDGE_CONFIG+Eve+1+2+PLAYING;1;0000+Dan"
console "shutdown"
expect_console_contains "shutting down"
expect_both dan eve "GAME_FINISHED+1++0;0+server shutting down"
expect_closed dan
expect_closed eve
expect_server_exit
pass
