#!/usr/bin/env bash
# After a game ends by two passes the server sends REQUEST_REMATCH to both players; each
# answers SET_REMATCH+1 (yes) or SET_REMATCH+0 (no). Yes from both: ACKNOWLEDGE_REMATCH+1
# and a new ACKNOWLEDGE_CONFIG (same game id, size and colours). A no from either:
# ACKNOWLEDGE_REMATCH+0 to both, and each may HANDSHAKE again for a new game.
source "$(dirname "$0")/lib.sh"
start_server

start_game ann Ann bob Bob 3   # Ann black, Bob white, 3x3

# SET_REMATCH is only an answer to REQUEST_REMATCH.
send ann "SET_REMATCH+1"
expect ann "UNKNOWN_COMMAND+SET_REMATCH answers REQUEST_REMATCH, which comes only after a game ends by two passes"

# Two passes on an empty board: nobody has any area, 0 to 0, a draw (empty winner field).
two_passes() {
    send ann "MOVE+1+Ann+-1"
    expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;1+PLAYING;2;000000000"
    send bob "MOVE+1+Bob+-1"
    expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;2+FINISHED;1;000000000"
    expect_both ann bob "GAME_FINISHED+1++0;0+Both players passed. Area score: black 0, white 0 (komi 0): a draw"
    expect_both ann bob "REQUEST_REMATCH"
}
two_passes

# --- yes / yes: the same game starts again. ---------------------------------------------
send ann "SET_REMATCH+1"
expect_silence bob               # nothing happens until both have answered
send bob "SET_REMATCH+1"
expect_both ann bob "ACKNOWLEDGE_REMATCH+1"
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+3+PLAYING;1;000000000+Bob"
expect bob "ACKNOWLEDGE_CONFIG+Bob+2+3+PLAYING;1;000000000+Ann"
two_passes

# --- yes / no: the game is over for good. ---------------------------------------------
send bob "SET_REMATCH+1"
# (Bob's yes and Ann's no come on two connections, and a no read first would end the
# game before the yes. The server handles one client's lines in order, so the answer to
# Bob's second, redundant yes proves his first one is in.)
send bob "SET_REMATCH+1"
expect bob "UNKNOWN_COMMAND+You already answered the rematch request"
send ann "SET_REMATCH+0"
expect_both ann bob "ACKNOWLEDGE_REMATCH+0"

# Both are free again: a new HANDSHAKE matches them anew (game 2, Bob leads this time).
send bob "HANDSHAKE+Bob"
expect bob "ACKNOWLEDGE_HANDSHAKE+2+1"
expect_match bob "REQUEST_CONFIG\+Game 2: .*"
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+2+0"

stop_server
pass
