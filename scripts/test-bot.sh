#!/usr/bin/env bash
# Alone in the lab? With --bot-after S, a game that has waited S seconds for a partner
# gets the server's practice bot, GoBot-L3, as its partner (the console's `bot <game id>`
# seats it at once). Your client sees exactly what it would see opposite another
# client: the same lines, in the same order. The bot passes when passing cannot lose
# it the game (you have just passed and it leads on the area score) or when no move
# helps, and it says yes to every rematch.
#
# The bot's moves depend on its thinking, so this script reads them with expect_match
# and follows the game from there. --komi 0.5 makes every score below exact.
source "$(dirname "$0")/lib.sh"
start_server --bot-after 1 --komi 0.5

connect ann
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+1+1"
expect_match ann "REQUEST_CONFIG\+Game 1: .*"
send ann "SET_CONFIG+1+1+3"      # black on a 3x3 board
# Nobody comes: one second later the bot takes the free seat and the game starts.
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+3+PLAYING;1;000000000+GoBot-L3"
expect_log "game 1: GoBot-L3 joined as partner (the practice bot, level 3)"

# --- Round 1 --------------------------------------------------------------------------
send ann "MOVE+1+Ann+4"          # the centre
expect ann "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"
# The bot answers like any opponent: a stone somewhere (index 0 to 8), or a pass (-1).
expect_match ann "ACKNOWLEDGE_MOVE\+1\+(-1|[0-8]);2\+PLAYING;1;[012]{9}"
board=${LINE##*;}                # the state's last field: the board after its move
send ann "MOVE+1+Ann+-1"         # Ann passes
if [[ $LINE == *"+-1;2+"* ]]; then
    # The bot had passed: two passes in a row end the game. Ann's centre stone owns
    # the whole board: 9 points against white's komi.
    expect ann "ACKNOWLEDGE_MOVE+1+-1;1+FINISHED;2;$board"
    expect ann "GAME_FINISHED+1+Ann+9;0.5+Both players passed. Area score: black 9, white 0.5 (komi 0.5): Ann wins"
else
    # One stone each, the empty ring touches both: black 1, white 1 + 0.5 komi. Ann has
    # just passed and the bot leads, so passing wins it the game: it passes.
    expect ann "ACKNOWLEDGE_MOVE+1+-1;1+PLAYING;2;$board"
    expect ann "ACKNOWLEDGE_MOVE+1+-1;2+FINISHED;1;$board"
    expect ann "GAME_FINISHED+1+GoBot-L3+1;1.5+Both players passed. Area score: black 1, white 1.5 (komi 0.5): GoBot-L3 wins"
fi
expect ann "REQUEST_REMATCH"
# The bot has said yes already (silently): Ann's yes starts the next round at once,
# same game id, size and colours.
send ann "SET_REMATCH+1"
expect ann "ACKNOWLEDGE_REMATCH+1"
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+3+PLAYING;1;000000000+GoBot-L3"

# --- Round 2 --------------------------------------------------------------------------
# Ann passes at once: on the empty board the bot leads by its komi, so it passes too.
send ann "MOVE+1+Ann+-1"
expect ann "ACKNOWLEDGE_MOVE+1+-1;1+PLAYING;2;000000000"
expect ann "ACKNOWLEDGE_MOVE+1+-1;2+FINISHED;1;000000000"
expect ann "GAME_FINISHED+1+GoBot-L3+0;0.5+Both players passed. Area score: black 0, white 0.5 (komi 0.5): GoBot-L3 wins"
expect ann "REQUEST_REMATCH"
send ann "SET_REMATCH+0"         # enough for tonight
expect ann "ACKNOWLEDGE_REMATCH+0"

# The game is over; Ann may be matched anew (game 2, which she leads).
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+2+1"
expect_match ann "REQUEST_CONFIG\+Game 2: .*"

stop_server
pass
