#!/usr/bin/env bash
# A whole GO! game on a 5x5 board, from the handshake to the score, with a capture.
#
# Boards are sent as one string of n*n digits, row by row: index = row * n + col,
# 0 empty, 1 black, 2 white. On 5x5 the top row is indices 0-4, the next 5-9, ...
source "$(dirname "$0")/lib.sh"
start_server

# The first client to say HANDSHAKE opens game 1 and is its leader (last field 1);
# the server then asks it for the configuration.
connect ann
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+1+1"
expect ann "REQUEST_CONFIG+Game 1: please send SET_CONFIG, game id 1, colour (0 random, 1 black, 2 white), board size (2 to 19), joined by plus signs"

# The second client joins the waiting game as a partner (last field 0).
connect bob
send bob "HANDSHAKE+Bob"
expect bob "ACKNOWLEDGE_HANDSHAKE+1+0"

# SET_CONFIG+<game id>+<colour>+<size>: Ann wants black (1) on a 5x5 board. Both players
# get ACKNOWLEDGE_CONFIG+<your name>+<your colour>+<size>+<state>+<opponent>, where the
# state is <status>;<colour to move>;<board>. Black (1) moves first.
send ann "SET_CONFIG+1+1+5"
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;0000000000000000000000000+Bob"
expect bob "ACKNOWLEDGE_CONFIG+Bob+2+5+PLAYING;1;0000000000000000000000000+Ann"

# MOVE+<game id>+<your name>+<index>. Every accepted move goes to both players as
# ACKNOWLEDGE_MOVE+<game id>+<index>;<colour>+<state>.
send ann "MOVE+1+Ann+1"          # black at row 0, col 1
expect_both ann bob "ACKNOWLEDGE_MOVE+1+1;1+PLAYING;2;0100000000000000000000000"
send bob "MOVE+1+Bob+0"          # white in the corner: its only liberties are 1 and 5
expect_both ann bob "ACKNOWLEDGE_MOVE+1+0;2+PLAYING;1;2100000000000000000000000"
send ann "MOVE+1+Ann+5"          # black takes the last liberty: the white stone is captured
expect_both ann bob "ACKNOWLEDGE_MOVE+1+5;1+PLAYING;2;0100010000000000000000000"
send bob "MOVE+1+Bob+12"         # white in the centre
expect_both ann bob "ACKNOWLEDGE_MOVE+1+12;2+PLAYING;1;0100010000002000000000000"

# A pass is MOVE with index -1 (PASS+<game id>+<name>, from the protocol's draft, too).
send ann "MOVE+1+Ann+-1"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;1+PLAYING;2;0100010000002000000000000"
send bob "PASS+1+Bob"
# Two passes in a row end the game: the last move's state says FINISHED.
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;2+FINISHED;1;0100010000002000000000000"

# GAME_FINISHED+<game id>+<winner>+<black>;<white>+<message>. Area scoring: stones on the
# board plus empty regions touching one colour only. Black: stones 1 and 5, plus the
# corner 0 (touches black only) = 3. White: the stone 12 = 1 (the big empty region
# touches both colours, so it counts for nobody).
expect_both ann bob "GAME_FINISHED+1+Ann+3;1+Both players passed. Area score: black 3, white 1 (komi 0): Ann wins"
# After two passes the server offers a rematch (see test-rematch.sh).
expect_both ann bob "REQUEST_REMATCH"

stop_server
pass
