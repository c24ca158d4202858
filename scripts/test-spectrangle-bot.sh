#!/usr/bin/env bash
# Alone with your Spectrangle client? With --spectrangle-bot-after S, a lobby whose only
# player has said READY and waited S seconds gets the server's practice bot, SpectraBot,
# and the game starts (the console's `bot <game id>`, e.g. `bot s1`, seats it at once).
# The bot is a player like any other: its turns come as UPDATE and TILE lines, it places
# a tile whenever it can, and swaps or skips only when the rules allow.
#
# --seed fixes the bag and the turn order, and the bot's choices follow from it too: its
# search ends by itself (one candidate left, or 3,200 simulated games, a few ms), long
# before --bot-think-ms 60000, which only caps it, so every line below is exact on any
# machine, however slow or busy.
source "$(dirname "$0")/lib.sh"
start_server --seed 3 --spectrangle-bot-after 1 --bot-think-ms 60000
port_of Spectrangle SPECTRANGLE

connect ann "$SPECTRANGLE"
send ann "JOIN Ann"
expect ann "LOBBY Ann"
# Ann is ready; nobody comes: a second later the bot joins, and everyone is ready.
send ann "READY"
expect ann "LOBBY Ann SpectraBot"
expect_log "spectrangle s1: SpectraBot joined (the practice bot)"
# START in turn order, then the deal: every player's four tiles, to everyone.
expect ann "START Ann SpectraBot"
for tile in YYB0 PPB0 YYY0 RYB0; do expect ann "TILE Ann $tile"; done
for tile in BBG0 PPP0 RRP0 GGG0; do expect ann "TILE SpectraBot $tile"; done

# Ann opens on field 0 (any field without a bonus will do for the first tile).
send ann "MOVE_PLAY YYY0 0"
expect ann "UPDATE Ann YYY0 0"
expect ann "TILE Ann GGY0"
# The bot's turn follows at once. None of its tiles has a yellow edge to match YYY0,
# so it may not place: it swaps PPP0 for a tile from the bag.
expect ann "UPDATE SpectraBot PPP0"
expect ann "TILE SpectraBot PPY0"

# Field 2 points down, under field 0: its top edge touches YYY0's bottom edge.
send ann "MOVE_PLAY YYB0 2"
expect ann "UPDATE Ann YYB0 2"
expect ann "TILE Ann GRB0"
# Now the bot can place: BBG turned (rotation 2) on field 3, matching YYB0's blue edge.
expect ann "UPDATE SpectraBot BBG2 3"
expect ann "TILE SpectraBot WWW0"

# Skipping (or swapping) is only for a player who cannot place: the error says what
# would fit.
send ann "MOVE_SKIP"
expect ann "ERROR 6 You can still place a tile, for example RYB0 at 1, so you must place one instead of swapping or skipping"
send ann "MOVE_PLAY RYB0 1"
expect ann "UPDATE Ann RYB0 1"
expect ann "TILE Ann YPG0"
expect ann "UPDATE SpectraBot RRP0 5"
expect ann "TILE SpectraBot RRB0"

# ... and so on to SCORE. Ann leaves instead: the game ends (the leaver hears nothing
# more), and she may JOIN again at once.
send ann "EXIT"
send ann "JOIN Ann"
expect ann "LOBBY Ann"

stop_server
pass
