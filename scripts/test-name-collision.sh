#!/usr/bin/env bash
# HANDSHAKE+<name> asks for a name; the server grants it, or, when it is taken, the name
# with a suffix: Ann, Ann_2, Ann_3... The granted name is the one in ACKNOWLEDGE_CONFIG,
# and the one MOVE and EXIT must carry. A name is 1 to 32 characters, with no '+' (it
# would split the line) and no control characters.
source "$(dirname "$0")/lib.sh"
start_server

connect first
send first "HANDSHAKE+Ann"
expect first "ACKNOWLEDGE_HANDSHAKE+1+1"
expect_match first "REQUEST_CONFIG\+.*"
connect second
send second "HANDSHAKE+Ann"
expect second "ACKNOWLEDGE_HANDSHAKE+1+0"
send first "SET_CONFIG+1+1+2"
expect first "ACKNOWLEDGE_CONFIG+Ann+1+2+PLAYING;1;0000+Ann_2"
expect second "ACKNOWLEDGE_CONFIG+Ann_2+2+2+PLAYING;1;0000+Ann"

# The second client must now call itself Ann_2.
send first "MOVE+1+Ann+0"
expect_both first second "ACKNOWLEDGE_MOVE+1+0;1+PLAYING;2;1000"
send second "MOVE+1+Ann+3"
expect second "INVALID_MOVE+MOVE: wrong player name: you are Ann_2, got Ann"
send second "MOVE+1+Ann_2+3"
expect_both first second "ACKNOWLEDGE_MOVE+1+3;2+PLAYING;1;1002"

# A third Ann gets Ann_3 (and opens game 2).
connect third
send third "HANDSHAKE+Ann"
expect third "ACKNOWLEDGE_HANDSHAKE+2+1"
expect_match third "REQUEST_CONFIG\+Game 2: .*"
connect fourth
send fourth "HANDSHAKE+Ann_3"  # asking for a granted name explicitly: taken too
expect fourth "ACKNOWLEDGE_HANDSHAKE+2+0"
send third "SET_CONFIG+2+2+2"
expect third "ACKNOWLEDGE_CONFIG+Ann_3+2+2+PLAYING;1;0000+Ann_3_2"
expect fourth "ACKNOWLEDGE_CONFIG+Ann_3_2+1+2+PLAYING;1;0000+Ann_3"

# Names that cannot be granted.
connect bad
send bad "HANDSHAKE+"
expect bad "UNKNOWN_COMMAND+HANDSHAKE: the name must not be empty"
send bad "HANDSHAKE+abcdefghijabcdefghijabcdefghijabc"
expect bad "UNKNOWN_COMMAND+HANDSHAKE: the name may have at most 32 characters, got 33"
send_raw bad 'HANDSHAKE+An\tn\n'
expect bad "UNKNOWN_COMMAND+HANDSHAKE: the name must not contain control characters"
# A name with '+' cannot even be written: it is one field too many.
send bad "HANDSHAKE+A+nn"
expect_match bad "UNKNOWN_COMMAND\+Expected 2 fields .*"

# When its owner leaves, a name is free again.
send first "EXIT+1+Ann"
expect_both first second "GAME_FINISHED+1+Ann_2+1;1+Ann exited: Ann_2 wins"
expect_closed first
send bad "HANDSHAKE+Ann"
expect bad "ACKNOWLEDGE_HANDSHAKE+3+1"
expect_match bad "REQUEST_CONFIG\+Game 3: .*"
connect last
send last "HANDSHAKE+Zed"
expect last "ACKNOWLEDGE_HANDSHAKE+3+0"
send bad "SET_CONFIG+3+1+2"
expect bad "ACKNOWLEDGE_CONFIG+Ann+1+2+PLAYING;1;0000+Zed"

stop_server
pass
