#!/usr/bin/env bash
# Spectrangle, the tile game, on its own port: two players join the default lobby, say
# READY, get the deal, make moves (and mistakes), and one leaves, which ends the game.
#
# Lines are blank-separated words. A tile is three colour letters and a rotation digit
# (RRY0); a location is a field 0 to 35, numbered row by row from the top corner
# (row r holds fields r*r to r*r + 2r). Every refusal is `ERROR <code> <message>`.
# --seed fixes the shuffle of the bag and the turn order, so the lines below are exact.
source "$(dirname "$0")/lib.sh"
start_server --seed 1
port_of Spectrangle SPECTRANGLE

# JOIN <name>: the lobby answers with everyone in it, in join order, each time it changes.
connect ann "$SPECTRANGLE"
send ann "JOIN Ann"
expect ann "LOBBY Ann"
connect bob "$SPECTRANGLE"
send bob "JOIN Bob"
expect_both ann bob "LOBBY Ann Bob"

# Moves are ERROR 8 until the game has started.
send ann "MOVE_PLAY RRR0 4"
expect ann "ERROR 8 Your lobby default has not started a game yet: send READY and wait for START"

# When everyone is READY: START in turn order (drawn at random: --seed 1 makes it Bob,
# Ann), then four tiles for each player, in that order. Hands are public.
send ann "READY"
send bob "READY"
for player in ann bob; do
    expect "$player" "START Bob Ann"
    expect "$player" "TILE Bob PPY0"
    expect "$player" "TILE Bob YPR0"
    expect "$player" "TILE Bob YPG0"
    expect "$player" "TILE Bob GGG0"
    expect "$player" "TILE Ann RRR0"
    expect "$player" "TILE Ann PPR0"
    expect "$player" "TILE Ann YYY0"
    expect "$player" "TILE Ann YYG0"
done

# Only the player to move may move.
send ann "MOVE_PLAY RRR0 4"
expect ann "ERROR 5 Not your turn: it is Bob's turn; wait for their UPDATE"
# The first tile may go anywhere but on a bonus field (fields 2, 10, 11, 13, 14, 20,
# 26, 30, 34).
send bob "MOVE_PLAY GGG0 2"
expect bob "ERROR 6 Field 2 is a bonus field (x3) and the first tile may not go on one: choose a field without a bonus"
# Accepted: UPDATE <name> <tile> <location> to everyone, then the tile drawn to refill.
send bob "MOVE_PLAY GGG0 0"
expect_both ann bob "UPDATE Bob GGG0 0"
expect_both ann bob "TILE Bob GGB0"

# Later tiles must touch a placed tile, and every touching edge must match (white
# matches anything). Field 2 points down: its top edge touches field 0's bottom edge.
send ann "MOVE_PLAY RRR0 2"
expect ann "ERROR 6 RRR0 at 2: its top edge is R but the bottom edge of GGG0 at 0 is G: touching edges must have the same colour, or one of them white (W)"
# The digit turns the tile: on a field pointing down, YYG1 puts the G on top. It
# scores value 5, times 1 matching edge, times the field's bonus 3.
send ann "MOVE_PLAY YYG1 2"
expect_both ann bob "UPDATE Ann YYG1 2"
expect_both ann bob "TILE Ann YYP0"

# A player who leaves ends the game for everyone: SCORE with the points so far, in
# turn order. The leaver hears nothing more, keeps its connection and may JOIN again.
send bob "EXIT"
expect ann "SCORE Bob,6 Ann,15"
send bob "JOIN Bob"
expect bob "LOBBY Bob"

stop_server
pass
