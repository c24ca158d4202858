#!/usr/bin/env bash
# Tournament day: with --arena the server pairs the GO! players itself. Nobody leads:
# a HANDSHAKE is answered only when a round (every --arena-round seconds) has paired
# the client, with ACKNOWLEDGE_HANDSHAKE+<game id>+0 and then ACKNOWLEDGE_CONFIG, the
# board being the arena's (--arena-size, --komi). Two games here: Ann and Bob meet,
# both say yes to the rematch, and play again with the colours swapped. Every result
# goes to the --results file before the players hear the end; the console's
# `standings`, `results`, `crosstable` and `arena` show the tournament.
#
# --seed fixes the one coin of the arena (the colours of a first meeting), so every
# line below is exact.
source "$(dirname "$0")/lib.sh"
RESULTS="$WORK/results.jsonl"
start_console_server --seed 5 --arena --arena-size 3 --arena-round 1 --results "$RESULTS"

connect ann
connect bob
send ann "HANDSHAKE+Ann"
# No answer yet: Ann waits for a round. The arena sets the game, not its players.
send ann "SET_CONFIG+1+1+9"
expect ann "UNKNOWN_COMMAND+The arena sets the game (3x3, komi 0): SET_CONFIG is not accepted"
send bob "HANDSHAKE+Bob"
# The next round pairs them: each gets the normal non-leader's flow.
expect_both ann bob "ACKNOWLEDGE_HANDSHAKE+1+0"
expect bob "ACKNOWLEDGE_CONFIG+Bob+2+3+PLAYING;1;000000000+Ann"
expect ann "ACKNOWLEDGE_CONFIG+Ann+1+3+PLAYING;1;000000000+Bob"
# The console's `arena` lists the games on the board, with their colours now (the
# game publishes its state just after its lines: asked again until it shows).
console_poll "arena" "^on the board: game 1 Ann \(black\) vs Bob \(white\), playing$"

# Game 1: Ann (black) takes the centre, Bob passes, Ann passes: Ann wins the board.
send ann "MOVE+1+Ann+4"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"
send bob "PASS+1+Bob"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;000010000"
send ann "PASS+1+Ann"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;1+FINISHED;2;000010000"
expect_both ann bob "GAME_FINISHED+1+Ann+9;0+Both players passed. Area score: black 9, white 0 (komi 0): Ann wins"
expect_both ann bob "REQUEST_REMATCH"
# The result is on disk before the players read GAME_FINISHED.
grep -q '"game":1,.*"players":\[{"name":"Ann","colour":1,"score":9},{"name":"Bob","colour":2,"score":0}\],"winner":"Ann","ending":"passes","moves":3,"size":3,"rated":true' "$RESULTS" ||
    fail "the results file lacks game 1: $(cat "$RESULTS")"

# Both say yes: the same two again, colours swapped (the arena's one departure from
# "a rematch keeps the config").
send bob "SET_REMATCH+1"
send ann "SET_REMATCH+1"
expect_both ann bob "ACKNOWLEDGE_REMATCH+1"
expect bob "ACKNOWLEDGE_CONFIG+Bob+1+3+PLAYING;1;000000000+Ann"
expect ann "ACKNOWLEDGE_CONFIG+Ann+2+3+PLAYING;1;000000000+Bob"
console_poll "arena" "^on the board: game 1 Bob \(black\) vs Ann \(white\), playing$"

# Game 2 (game 1's rematch): Bob is black now, and wins the same way.
send bob "MOVE+1+Bob+4"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;000010000"
send ann "PASS+1+Ann"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;000010000"
send bob "PASS+1+Bob"
expect_both ann bob "ACKNOWLEDGE_MOVE+1+-1;1+FINISHED;2;000010000"
expect_both ann bob "GAME_FINISHED+1+Bob+9;0+Both players passed. Area score: black 9, white 0 (komi 0): Bob wins"
expect_both ann bob "REQUEST_REMATCH"
send ann "SET_REMATCH+0"
expect_both ann bob "ACKNOWLEDGE_REMATCH+0"
[[ $(wc -l <"$RESULTS") -eq 2 ]] || fail "two results were expected in the file: $(cat "$RESULTS")"

# The console: one win each; Glicko-2 rates one game at a time, so Bob's win, an
# upset after his first loss, moves the ratings more. The crosstable; the last result.
console "standings go"
expect_console_contains "GO! standings"
expect_console_contains "RANK  NAME  RATING      GAMES  WINS  LOSSES  DRAWS  LAST"
expect_console_contains "1     Bob   1567 ± 260  2      1     1       0      won vs Ann (passes)"
expect_console_contains "2     Ann   1433 ± 260  2      1     1       0      lost vs Bob (passes)"
console "crosstable"
expect_console_contains "GO! crosstable (row player's wins-losses against the column player)"
expect_console_contains "Bob  -    1-1"
expect_console_contains "Ann  1-1  -"
console "results 1"
expect_console_contains "ENDED"
expect_console_contains "  go     1     Bob 9, Ann 0  Bob     passes  3      yes"
console "arena"
expect_console_contains "GO! arena: 3x3, komi 0, a round every 1 s;"
expect_console_contains "waiting: nobody"
expect_console_contains "latest round: game 1 Ann (black) vs Bob (white)"
# The game left the board when Ann said no to another rematch.
console_poll "arena" "^on the board: no games$"
console "arena frobnicate"
expect_console_contains "'frobnicate' is not an arena action: use 'arena', 'arena pause' or 'arena resume'"

# Ann waits for another round; the operator pauses the arena meanwhile.
send ann "HANDSHAKE+Ann"
console "arena pause"
expect_console_contains "arena paused: the games on the board finish; no new pairs until 'arena resume'"
console_poll "arena" "^waiting: Ann \("
send bob "HANDSHAKE+Bob"
expect_silence ann 1.5
console "arena resume"
expect_console_contains "arena resumed: the next round pairs in"
expect_both ann bob "ACKNOWLEDGE_HANDSHAKE+2+0"
stop_server
pass
