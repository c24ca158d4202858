#!/usr/bin/env bash
# Alone in the Bkgo room? With --bkgo-bot-after S, a player who sits alone (the other
# seat free, a game going on) for S seconds gets the server's practice bot, GoBot, in
# the free seat (the console's `bot bkgo` seats it at once). The room sees it arrive
# like any joiner, its moves come as `Place:` and `Pass` lines to everyone, it answers
# chat with nothing, and when its game ends it leaves its seat: a person comes first.
#
# The bot's moves depend on its search: --seed fixes its random choices, and level 2
# stops after 500 simulations, long before --bot-think-ms 60000, so every line below
# is exact on any machine (docs/bkgo.md shows the same game).
source "$(dirname "$0")/lib.sh"
start_server --bkgo-size 5 --seed 5 --bkgo-bot-after 1 --bot-level 2 --bot-think-ms 60000
port_of Bkgo BKGO

# joins NAME: connect NAME to the Bkgo port and send `join` and `Player: NAME`.
joins() {
    connect "$1" "$BKGO"
    expect "$1" "BKGO-Server-version-0.6"
    send "$1" "BKGO-Client-version-1.0"
    expect "$1" "OK"
    send "$1" "join"
    expect "$1" "GimmeGoPlayer"
    send "$1" "Player: $2"
}

# Ann sits at black; nobody else is here.
joins ann Ann
expect ann "ID: 1"
expect ann "ClearPlayers"
expect ann "AddPlayer: Ann"
expect ann "BlackPlayer: Ann"
expect ann "WhitePlayer:"
expect ann "Board:"
expect_match ann '\(;FF\[4\].*SZ\[5\].*PB\[Ann\]PW\[\]DT\[[0-9-]+\]\)'
expect ann "EOF"
# A second later the bot takes the free seat, as a joiner would: its name says its
# level.
expect ann "AnnouncePlayer: GoBot-L2"
expect ann "AddPlayer: GoBot-L2"
expect ann "WhitePlayer: GoBot-L2"
expect_log "bkgo room: GoBot-L2 takes the white seat (the practice bot, level 2): a player sat alone for 1 s"

# Cat comes to watch: both seats are taken.
joins cat Cat
expect cat "ID: 3"
expect cat "ClearPlayers"
expect cat "AddPlayer: Ann"
expect cat "AddPlayer: GoBot-L2"
expect cat "AddPlayer: Cat"
expect cat "BlackPlayer: Ann"
expect cat "WhitePlayer: GoBot-L2"
expect cat "Board:"
expect_match cat '\(;FF\[4\].*PB\[Ann\]PW\[GoBot-L2\].*\)'
expect cat "EOF"
expect ann "AnnouncePlayer: Cat"
expect ann "AddPlayer: Cat"

# The bot answers chat with nothing: the next lines are the game's.
send ann "Message: good luck, GoBot"
expect_both ann cat "Message: Ann: good luck, GoBot"

# Each of Ann's moves, then the bot's, go to the whole room.
send ann "Place: 2, 2"
expect_both ann cat "Place: 2, 2"
expect_both ann cat "Place: 1, 3"
send ann "Place: 2, 1"
expect_both ann cat "Place: 2, 1"
expect_both ann cat "Place: 3, 2"
# Ann passes at 2 to 2: the bot does not lead, so it plays on.
send ann "Pass"
expect_both ann cat "Pass"
expect_both ann cat "Place: 3, 1"
# Ann passes again: the bot leads 3 to 2, so passing wins it the game.
send ann "Pass"
expect_both ann cat "Pass"
expect_both ann cat "Pass"
expect_both ann cat "Dialog: Game over: both players passed. Area score: black 2, white 3 (komi 0): GoBot-L2 (white) wins by 1"
# The result is filed like any other game's, under the bot's name.
expect_log "result: bkgo game 1: Ann 2, GoBot-L2 3; winner GoBot-L2; passes after 8 moves"
# Its game over, the bot leaves: its seat goes to Cat, who waited longest.
expect_both ann cat "GoodbyePlayer: GoBot-L2"
expect_both ann cat "WhitePlayer: Cat"

# Cat leaves: Ann is alone again, but the game on the board is over, so no bot comes
# until a new game starts.
send cat "Quitting: 3"
expect_closed cat
expect ann "GoodbyePlayer: Cat"
expect ann "WhitePlayer:"
expect_silence ann 1.5
send ann "NewBoard"
expect ann "ClearPlayers"
expect ann "AddPlayer: Ann"
expect ann "BlackPlayer: Ann"
expect ann "WhitePlayer:"
expect ann "Board:"
expect_match ann '\(;FF\[4\].*PB\[Ann\]PW\[\]DT\[[0-9-]+\]\)'
expect ann "EOF"
# A second later, the bot is back for the new game.
expect ann "AnnouncePlayer: GoBot-L2"
expect ann "AddPlayer: GoBot-L2"
expect ann "WhitePlayer: GoBot-L2"

stop_server
pass
