#!/usr/bin/env bash
# Bkgo 0.6, the second Go protocol, on its own port (by default the GO! port + 2): one
# shared board per server, two seated players, everyone else watching and chatting,
# every event broadcast to the whole room. The server speaks first; a message is
# `Command` or `Command: arguments`. A well-formed message that is refused gets
# `Dialog: <reason>` and `ServerRejectedNonFatal`; garbage gets `Dialog: <reason>` and
# `ServerRejectedFatal`, and the connection closes.
source "$(dirname "$0")/lib.sh"
printf 's3cret\n' >"$WORK/password"
start_server --bkgo-size 5 --bkgo-password-file "$WORK/password" --records "$WORK/records"
port_of Bkgo BKGO

# hello NAME: connect NAME to the Bkgo port: greeting, version, OK.
hello() {
    connect "$1" "$BKGO"
    expect "$1" "BKGO-Server-version-0.6"
    send "$1" "BKGO-Client-version-1.0"
    expect "$1" "OK"
}

# `status`: one line about the room, then the server closes the connection.
hello peek
send peek "status"
expect peek "Moves made: 0, Black score: 0, White score: 0, Players: 0"
expect_closed peek

# `join`: the first joiner sits at black. It gets its ID, the player list, the seats
# and the board as SGF between `Board:` and `EOF`.
hello ann
send ann "join"
expect ann "GimmeGoPlayer"
send ann "Player: Ann"
expect ann "ID: 1"
expect ann "ClearPlayers"
expect ann "AddPlayer: Ann"
expect ann "BlackPlayer: Ann"
expect ann "WhitePlayer:"
expect ann "Board:"
expect_match ann '\(;FF\[4\]GM\[1\].*SZ\[5\]KM\[0\].*PB\[Ann\]PW\[\]DT\[[0-9-]+\]\)'
expect ann "EOF"

# The second sits at white; the room hears of it.
hello bob
send bob "join"
expect bob "GimmeGoPlayer"
send bob "Player: Bob"
expect bob "ID: 2"
expect bob "ClearPlayers"
expect bob "AddPlayer: Ann"
expect bob "AddPlayer: Bob"
expect bob "BlackPlayer: Ann"
expect bob "WhitePlayer: Bob"
expect bob "Board:"
expect_match bob '\(;FF\[4\].*PB\[Ann\]PW\[Bob\].*\)'
expect bob "EOF"
expect ann "AnnouncePlayer: Bob"
expect ann "AddPlayer: Bob"
expect ann "WhitePlayer: Bob"

# Later joiners watch. A taken name gets a suffix.
hello cat
send cat "join"
expect cat "GimmeGoPlayer"
send cat "Player: Ann"
expect cat "ID: 3"
expect cat "ClearPlayers"
expect cat "AddPlayer: Ann"
expect cat "AddPlayer: Bob"
expect cat "AddPlayer: Ann_2"
expect cat "BlackPlayer: Ann"
expect cat "WhitePlayer: Bob"
expect cat "Board:"
expect_match cat '\(;FF\[4\].*\)'
expect cat "EOF"
expect_both ann bob "AnnouncePlayer: Ann_2"
expect_both ann bob "AddPlayer: Ann_2"

# Place: x (the column), then y (the row), both from 0. Every move goes to everyone.
send ann "Place: 2, 2"
expect_both ann bob "Place: 2, 2"
expect cat "Place: 2, 2"
# Refusals go to the sender only: out of turn, a watcher, off the board.
send ann "Place: 1, 1"
expect ann "Dialog: Not your turn: white (Bob) is to move"
expect ann "ServerRejectedNonFatal"
send cat "Place: 0, 0"
expect cat "Dialog: You are watching: only the seated black and white players may send Place"
expect cat "ServerRejectedNonFatal"
send bob "Place: 5, 0"
expect bob "Dialog: Place: 5, 0 is off the board: x and y go from 0 to 4 on this 5x5 board"
expect bob "ServerRejectedNonFatal"

# Chat: everyone gets it, with the sender's name.
send cat "Message: nice centre stone"
expect_both ann bob "Message: Ann_2: nice centre stone"
expect cat "Message: Ann_2: nice centre stone"

# Two passes end the game: the room gets the area score; the record is written.
send bob "Pass"
expect_both ann bob "Pass"
expect cat "Pass"
send ann "Pass"
expect_both ann bob "Pass"
expect cat "Pass"
result="Dialog: Game over: both players passed. Area score: black 25, white 0 (komi 0): Ann (black) wins by 25"
expect_both ann bob "$result"
expect cat "$result"
# The record is written by the records thread, after the room has moved on: wait for
# its log line, then look at the file.
expect_log "bkgo game 1: record written to $WORK/records/bkgo-"
compgen -G "$WORK/records/bkgo-*-1.sgf" >/dev/null || fail "no record of the finished game in --records"

# Quitting with your own ID: you leave, the room hears goodbye, and your seat goes to
# the longest-waiting watcher.
send ann "Quitting: 1"
expect_closed ann
expect_both bob cat "GoodbyePlayer: Ann"
expect_both bob cat "BlackPlayer: Ann_2"

# Garbage: told why, then dropped; the room hears goodbye, the seat is free.
send bob "Place: a, b"
expect bob "Dialog: Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got 'a, b'"
expect bob "ServerRejectedFatal"
expect_closed bob
expect cat "GoodbyePlayer: Bob"
expect cat "WhitePlayer:"

# Remote shutdown: a wrong password is refused without a reason...
hello eve
send eve "shutdown"
expect eve "GimmePassword"
send eve "Password: guess"
expect eve "ServerRejectedFatal"
expect_closed eve
# ... the right one stops the whole server, like the console's shutdown.
hello root
send root "shutdown"
expect root "GimmePassword"
send root "Password: s3cret"
expect root "server terminated"
expect cat "Dialog: The server is shutting down: the room is closed"
expect cat "ServerRejectedFatal"
expect_server_exit
# A password is never logged.
if grep -q "s3cret\|guess" "$WORK/server.log"; then
    fail "a password is in the server log"
fi
pass
