#!/usr/bin/env bash
# The leader (the first player of a game) chooses colour and board size with
# SET_CONFIG+<game id>+<colour>+<size>: colour 0 random, 1 black, 2 white; size 2 to 19.
# Only the leader may, only once; a bad SET_CONFIG gets UNKNOWN_COMMAND+<reason>, and the
# server asks again with REQUEST_CONFIG while the game has no configuration yet.
source "$(dirname "$0")/lib.sh"
start_server
request() { echo "REQUEST_CONFIG+Game $1: please send SET_CONFIG, game id $1, colour (0 random, 1 black, 2 white), board size (2 to 19), joined by plus signs"; }

# --- Game 1: the leader configures BEFORE the partner arrives. -------------------------
connect ann
send ann "HANDSHAKE+Ann"
expect ann "ACKNOWLEDGE_HANDSHAKE+1+1"
expect ann "$(request 1)"
send ann "SET_CONFIG+1+2+9"      # Ann wants white on 9x9: nothing to say until a partner comes
expect_silence ann
connect bob
send bob "HANDSHAKE+Bob"
expect bob "ACKNOWLEDGE_HANDSHAKE+1+0"
# Now the game starts at once. Black (Bob) moves first: the state's middle field is 1.
board9=$(printf '0%.0s' {1..81})
expect ann "ACKNOWLEDGE_CONFIG+Ann+2+9+PLAYING;1;$board9+Bob"
expect bob "ACKNOWLEDGE_CONFIG+Bob+1+9+PLAYING;1;$board9+Ann"
# Once configured, the configuration is final.
send ann "SET_CONFIG+1+1+5"
expect ann "UNKNOWN_COMMAND+Game 1 is already configured (9x9)"

# --- Game 2: the partner arrives first; mistakes are explained. ------------------------
connect cid
send cid "HANDSHAKE+Cid"
expect cid "ACKNOWLEDGE_HANDSHAKE+2+1"
expect cid "$(request 2)"
connect dan
send dan "HANDSHAKE+Dan"
expect dan "ACKNOWLEDGE_HANDSHAKE+2+0"

# The partner may not configure.
send dan "SET_CONFIG+2+1+5"
expect dan "UNKNOWN_COMMAND+Only the leader of game 2, Cid, sends SET_CONFIG"
# Sizes run from 2 to 19 (--max-board-size): a bad one is refused and asked again.
send cid "SET_CONFIG+2+1+20"
expect cid "UNKNOWN_COMMAND+SET_CONFIG: board size must be from 2 to 19, got 20"
expect cid "$(request 2)"
send cid "SET_CONFIG+2+1+1"
expect cid "UNKNOWN_COMMAND+SET_CONFIG: board size must be from 2 to 19, got 1"
expect cid "$(request 2)"
# Colours are 0, 1 or 2.
send cid "SET_CONFIG+2+3+5"
expect cid "UNKNOWN_COMMAND+SET_CONFIG: colour must be 0 (random), 1 (black) or 2 (white), got 3"
expect cid "$(request 2)"
# The game id is the one from ACKNOWLEDGE_HANDSHAKE.
send cid "SET_CONFIG+1+1+5"
expect cid "UNKNOWN_COMMAND+SET_CONFIG: wrong game id: you are in game 2, got 1"
expect cid "$(request 2)"
# The spec's example shows SET_CONFIG without the game id: that short form is refused.
send cid "SET_CONFIG+1+5"
expect cid "UNKNOWN_COMMAND+Expected 4 fields joined by plus signs (SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size), got 3"
expect cid "$(request 2)"
# Nothing of this reached the partner.
expect_silence dan

# Colour 0: the server draws the colours; the two players always get opposite ones.
send cid "SET_CONFIG+2+0+3"
expect_match cid "ACKNOWLEDGE_CONFIG\+Cid\+[12]\+3\+PLAYING;1;000000000\+Dan"
cid_colour=$(cut -d+ -f3 <<<"$LINE")
expect dan "ACKNOWLEDGE_CONFIG+Dan+$((3 - cid_colour))+3+PLAYING;1;000000000+Cid"

stop_server
pass
