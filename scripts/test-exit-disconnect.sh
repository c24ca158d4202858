#!/usr/bin/env bash
# EXIT+<game id>+<name> ends your game at any moment: the other player wins, both get
# GAME_FINISHED+<game id>+<winner>+<black>;<white>+<message>, and the server closes the
# exiting connection. Dropping the connection (Ctrl-C in nc) counts as an exit.
source "$(dirname "$0")/lib.sh"
start_server

# start_game ID LEADER PARTNER: LEADER (black) and PARTNER (white) on 3x3 in game ID.
start_game() {
    local id=$1 leader=$2 partner=$3
    connect "$leader"
    send "$leader" "HANDSHAKE+$leader"
    expect "$leader" "ACKNOWLEDGE_HANDSHAKE+$id+1"
    expect_match "$leader" "REQUEST_CONFIG\+.*"
    connect "$partner"
    send "$partner" "HANDSHAKE+$partner"
    expect "$partner" "ACKNOWLEDGE_HANDSHAKE+$id+0"
    send "$leader" "SET_CONFIG+$id+1+3"
    expect "$leader" "ACKNOWLEDGE_CONFIG+$leader+1+3+PLAYING;1;000000000+$partner"
    expect "$partner" "ACKNOWLEDGE_CONFIG+$partner+2+3+PLAYING;1;000000000+$leader"
}

# --- EXIT during a game ----------------------------------------------------------------
start_game 1 Ann Bob
send Ann "MOVE+1+Ann+4"
expect_both Ann Bob "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"
# EXIT must carry your own game id and name.
send Ann "EXIT+1+Bob"
expect Ann "UNKNOWN_COMMAND+EXIT: wrong player name: you are Ann, got Bob"
send Ann "EXIT+1+Ann"
# The score field is the area score of the board as it stands (black 9: one stone alone).
expect_both Ann Bob "GAME_FINISHED+1+Bob+9;0+Ann exited: Bob wins"
expect_closed Ann
# Bob stays connected and may look for a new game.
send Bob "HANDSHAKE+Bob"
expect Bob "ACKNOWLEDGE_HANDSHAKE+2+1"
expect_match Bob "REQUEST_CONFIG\+Game 2: .*"

# --- A leader who leaves before the game starts ----------------------------------------
# Cid joins Bob's game 2 as partner; Bob vanishes before configuring. Nobody is stranded:
# Cid becomes the leader of a new game.
connect Cid
send Cid "HANDSHAKE+Cid"
expect Cid "ACKNOWLEDGE_HANDSHAKE+2+0"
disconnect Bob
expect Cid "ACKNOWLEDGE_HANDSHAKE+3+1"
expect_match Cid "REQUEST_CONFIG\+Game 3: .*"
send Cid "EXIT+3+Cid"
expect_closed Cid

# --- A disconnect during a game --------------------------------------------------------
start_game 4 Dan Eve
disconnect Dan
expect Eve "GAME_FINISHED+4+Eve+0;0+Dan disconnected: Eve wins"

# --- Server shutdown during a game ------------------------------------------------------
# SIGTERM (or Ctrl-C, or the console's shutdown) finishes every game, closes every
# connection and exits 0.
start_game 5 Fay Gus
stop_server
expect_both Fay Gus "GAME_FINISHED+5++0;0+server shutting down"
expect_closed Fay
expect_closed Gus
pass
