#!/usr/bin/env bash
# A MOVE the rules or the turn order reject gets INVALID_MOVE+<reason>, to the mover only;
# the game goes on as if nothing was sent. The server checks, in this order: game id,
# player name, game in progress, turn, index on the board, empty point, suicide, ko.
source "$(dirname "$0")/lib.sh"
start_server

connect ann
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+1+1"
expect_match ann "REQUEST_CONFIG\+.*"
# A move before the game has started. The leader still owes its configuration, so
# the refusal is followed by a reminder.
send ann "MOVE+1+Ann+0"
expect ann "INVALID_MOVE+Game 1 has not started yet: waiting for an opponent"
expect_match ann "REQUEST_CONFIG\+.*"

connect bob
send bob "HANDSHAKE+Bob"
expect bob "ACKNOWLEDGE_HANDSHAKE+1+0"
send ann "SET_CONFIG+1+1+5"      # Ann black, Bob white, 5x5 (tiles 0 to 24)
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;0000000000000000000000000+Bob"
expect bob "ACKNOWLEDGE_CONFIG+Bob+2+5+PLAYING;1;0000000000000000000000000+Ann"

# Not your turn: black moves first.
send bob "MOVE+1+Bob+12"
expect bob "INVALID_MOVE+Not your turn: black is to move"
# Wrong game id, wrong name: both fields must be the ones the server gave you.
send ann "MOVE+2+Ann+12"
expect ann "INVALID_MOVE+MOVE: wrong game id: you are in game 1, got 2"
send ann "MOVE+1+Bob+12"
expect ann "INVALID_MOVE+MOVE: wrong player name: you are Ann, got Bob"
# Off the board: 0 to 24 on 5x5, or -1 to pass.
send ann "MOVE+1+Ann+25"
expect ann "INVALID_MOVE+Tile index 25 is off the board: a 5x5 board has tiles 0 to 24, or -1 to pass"
send ann "MOVE+1+Ann+-2"
expect ann "INVALID_MOVE+Tile index -2 is off the board: a 5x5 board has tiles 0 to 24, or -1 to pass"
# None of this went to Bob.
expect_silence bob

# Build a ko. Tiles named (row,col); index = row * 5 + col.
#     . B W . .        row 0: B at 1, W at 2
#     B w B W .        row 1: B at 5, w at 6 (captured by B at 7), W at 8
#     . B W . .        row 2: B at 11, W at 12
play() { # play NAME INDEX BOARD-AFTER COLOUR-TO-MOVE-AFTER
    local mover=$1 colour=1
    [[ $1 == Bob ]] && colour=2
    send "${1,,}" "MOVE+1+$1+$2"
    expect_both ann bob "ACKNOWLEDGE_MOVE+1+$2;$colour+PLAYING;$4;$3"
}
play Ann 1  0100000000000000000000000 2
play Bob 2  0120000000000000000000000 1
# Occupied.
send ann "MOVE+1+Ann+2"
expect ann "INVALID_MOVE+Tile 2 (C5) is not empty"
play Ann 5  0120010000000000000000000 2
play Bob 8  0120010020000000000000000 1
play Ann 11 0120010020010000000000000 2
play Bob 12 0120010020012000000000000 1
play Ann 20 0120010020012000000010000 2
play Bob 6  0120012020012000000010000 1
play Ann 7  0120010120012000000010000 2   # black captures the white stone at 6
# Ko: white may not take back at 6 at once (it would repeat the earlier position).
send bob "MOVE+1+Bob+6"
expect bob "INVALID_MOVE+Ko: white cannot retake at tile 6 (B4) immediately"
# Suicide: white at 0 would have no liberty (1 and 5 are black) and capture nothing.
send bob "MOVE+1+Bob+0"
expect bob "INVALID_MOVE+Suicide: the stone at tile 0 (A5) would have no liberties"
expect_silence ann
# After all these refusals, it is still white's turn and a legal move is accepted.
play Bob 24 0120010120012000000010002 1

stop_server
pass
