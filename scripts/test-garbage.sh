#!/usr/bin/env bash
# Whatever a client sends, the server answers with a line that says what was wrong and
# what it expected (UNKNOWN_COMMAND+<reason>), and keeps serving. Keywords are upper
# case; fields are split on '+', blanks around each field are ignored, and a line may
# end in \r\n as well as \n.
source "$(dirname "$0")/lib.sh"
start_server

connect eve
# An empty line.
send eve ""
expect eve "UNKNOWN_COMMAND+Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT"
# An unknown keyword.
send eve "garbage"
expect eve "UNKNOWN_COMMAND+Unknown command 'garbage': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT"
# Lower case.
send eve "handshake+Eve"
expect eve "UNKNOWN_COMMAND+Unknown command 'handshake': commands are upper case, did you mean HANDSHAKE?"
# The wrong number of fields.
send eve "HANDSHAKE"
expect eve "UNKNOWN_COMMAND+Expected 2 fields joined by plus signs (HANDSHAKE, your name), got 1"
send eve "HANDSHAKE+A+nn"
expect eve "UNKNOWN_COMMAND+Expected 2 fields joined by plus signs (HANDSHAKE, your name), got 3"
# A line longer than 4096 bytes is refused as a whole (and the next line is read normally).
send eve "HANDSHAKE+$(printf 'x%.0s' {1..5000})"
expect eve "UNKNOWN_COMMAND+Line too long: at most 4096 bytes per line"
# Bytes that are not UTF-8 text.
send_raw eve 'HANDSHAKE+\xff\xfe\n'
expect eve "UNKNOWN_COMMAND+The line is not valid UTF-8 text"
# A command that is fine, but not now: no game yet.
send eve "MOVE+1+Eve+0"
expect eve "UNKNOWN_COMMAND+You are not in a game, so MOVE is not possible: send HANDSHAKE with your name first"

# After all that, a \r\n-terminated handshake with blanks around the fields works.
send_raw eve '  HANDSHAKE +  Eve \r\n'
expect eve "ACKNOWLEDGE_HANDSHAKE+1+1"
expect_match eve "REQUEST_CONFIG\+.*"
connect bob
send bob "HANDSHAKE+Bob"
expect bob "ACKNOWLEDGE_HANDSHAKE+1+0"
send eve "SET_CONFIG+1+1+3"
expect eve "ACKNOWLEDGE_CONFIG+Eve+1+3+PLAYING;1;000000000+Bob"
expect bob "ACKNOWLEDGE_CONFIG+Bob+2+3+PLAYING;1;000000000+Eve"

# In a game: numbers that are not numbers, fields missing.
send eve "MOVE+1+Eve+x"
expect eve "UNKNOWN_COMMAND+MOVE: tile index (-1 to pass) must be a whole number, got 'x'"
send eve "MOVE+one+Eve+4"
expect eve "UNKNOWN_COMMAND+MOVE: game id must be a whole number, got 'one'"
send eve "MOVE+1+Eve"
expect eve "UNKNOWN_COMMAND+Expected 4 fields joined by plus signs (MOVE, game id, your name, tile index (-1 to pass)), got 3"
send eve "MOVE+1+Eve+4+5"
expect eve "UNKNOWN_COMMAND+Expected 4 fields joined by plus signs (MOVE, game id, your name, tile index (-1 to pass)), got 5"
send eve "SET_REMATCH+yes"
expect eve "UNKNOWN_COMMAND+SET_REMATCH: the answer must be a whole number, got 'yes'"
# The opponent heard none of it, and the game goes on.
expect_silence bob
send eve "MOVE+1+Eve+4"
expect_both eve bob "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"

stop_server
pass
