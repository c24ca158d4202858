//! The practice bot in the Bkgo room over real TCP: it takes the free seat opposite a
//! player left alone (`--bkgo-bot-after`, the console's `bot bkgo`), plays as a seated
//! player whose moves everyone sees, and leaves its seat when its game ends or nobody
//! is left to play: a human always comes first. Its moves depend on its search, so
//! they are read loosely and checked against the board.

mod bkgo_support;
mod common;

use bkgo_support::*;
use common::TestServer;
use goserver::console::Console;
use goserver::engine::bot::Level;
use goserver::server::Protocol;
use std::time::{Duration, Instant};

/// The three lines the room hears when the bot `name` takes the `seat` seat.
fn expect_bot_arrives(client: &mut common::Client, name: &str, seat: &str) {
    client.expect(&format!("AnnouncePlayer: {name}"));
    client.expect(&format!("AddPlayer: {name}"));
    client.expect(&format!("{seat}Player: {name}"));
}

#[test]
fn a_player_alone_gets_the_bot_plays_it_to_two_passes_and_the_next_human_gets_the_seat() {
    let after = Duration::from_millis(500);
    let server = room(settings(5, Some(after), Some(64)));
    let joined = Instant::now();
    let (mut ann, welcome) = join(&server, "Ann");
    assert_eq!(
        welcome,
        [
            "ID: 1",
            "ClearPlayers",
            "AddPlayer: Ann",
            "BlackPlayer: Ann",
            "WhitePlayer:"
        ]
    );
    // Nobody comes: the bot takes the free seat once Ann has sat alone long enough.
    expect_bot_arrives(&mut ann, "GoBot-L3", "White");
    assert!(
        joined.elapsed() >= after,
        "the bot came after {:?}",
        joined.elapsed()
    );
    let mut board = Board::new(5);
    play_to_two_passes(&mut [&mut ann], &mut board, (2, 2));
    ann.expect_prefix("Dialog: Game over: both players passed. Area score: ");
    // Its game over, the bot leaves: the seat is free for the next human.
    ann.expect("GoodbyePlayer: GoBot-L3");
    ann.expect("WhitePlayer:");
    // Its game is filed like any other, under its name.
    let results = server.server.results.recent(10);
    assert_eq!(results.len(), 1);
    let result = serde_json::to_value(&*results[0]).expect("JSON");
    assert_eq!(
        (
            &result["front"],
            &result["players"][0]["name"],
            &result["players"][1]["name"],
            &result["ending"]
        ),
        (
            &serde_json::json!("bkgo"),
            &serde_json::json!("Ann"),
            &serde_json::json!("GoBot-L3"),
            &serde_json::json!("passes")
        )
    );
    let (_bob, welcome) = join(&server, "Bob");
    assert_eq!(
        welcome,
        [
            "ID: 3",
            "ClearPlayers",
            "AddPlayer: Ann",
            "AddPlayer: Bob",
            "BlackPlayer: Ann",
            "WhitePlayer: Bob"
        ]
    );
    ann.expect("AnnouncePlayer: Bob");
    ann.expect("AddPlayer: Bob");
    ann.expect("WhitePlayer: Bob");
}

#[test]
fn a_watcher_sees_every_bot_move_and_takes_its_seat_after_the_end() {
    let server = room(settings(5, Some(Duration::from_millis(200)), Some(64)));
    let (mut ann, _) = join(&server, "Ann");
    expect_bot_arrives(&mut ann, "GoBot-L3", "White");
    let (mut cat, welcome) = join(&server, "Cat");
    assert_eq!(
        welcome,
        [
            "ID: 3",
            "ClearPlayers",
            "AddPlayer: Ann",
            "AddPlayer: GoBot-L3",
            "AddPlayer: Cat",
            "BlackPlayer: Ann",
            "WhitePlayer: GoBot-L3"
        ]
    );
    ann.expect("AnnouncePlayer: Cat");
    ann.expect("AddPlayer: Cat");
    // The bot answers chat with nothing: the next line is Ann's move.
    ann.send("Message: good luck");
    all(&mut [&mut ann, &mut cat], "Message: Ann: good luck");
    let mut board = Board::new(5);
    let bot_lines = play_to_two_passes(&mut [&mut ann, &mut cat], &mut board, (2, 2));
    assert!(!bot_lines.is_empty());
    let end = ann.expect_prefix("Dialog: Game over: both players passed. Area score: ");
    cat.expect(&end);
    // The seat goes to the longest-waiting watcher, as any freed seat does.
    all(&mut [&mut ann, &mut cat], "GoodbyePlayer: GoBot-L3");
    all(&mut [&mut ann, &mut cat], "WhitePlayer: Cat");
}

#[test]
fn a_player_who_leaves_mid_game_leaves_the_bot_to_a_watcher_then_to_nobody() {
    let after = Duration::from_millis(300);
    let server = room(settings(5, Some(after), Some(64)));
    let operator = Console::new(&server.server);
    let (mut ann, _) = join(&server, "Ann");
    expect_bot_arrives(&mut ann, "GoBot-L3", "White");
    let (mut cat, _) = join(&server, "Cat");
    ann.expect("AnnouncePlayer: Cat");
    ann.expect("AddPlayer: Cat");
    let mut board = Board::new(5);
    ann.send("Place: 2, 2");
    all(&mut [&mut ann, &mut cat], "Place: 2, 2");
    board.place(2, 2);
    bot_move(&mut [&mut ann, &mut cat], &mut board);
    // Ann quits: as with a human partner, the game goes on, Cat in her seat.
    ann.send("Quitting: 1");
    ann.expect_closed();
    cat.expect("GoodbyePlayer: Ann");
    cat.expect("BlackPlayer: Cat");
    let (x, y) = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .find(|&(x, y)| board.is_free(x, y))
        .expect("a free point");
    cat.send(&format!("Place: {x}, {y}"));
    cat.expect(&format!("Place: {x}, {y}"));
    board.place(x, y);
    bot_move(&mut [&mut cat], &mut board);
    // Cat disconnects: nobody is left opposite the bot, and it leaves too.
    drop(cat);
    let players = console_until(&operator, "players", |a| !a.contains("GoBot-L3"));
    assert!(!players.contains("GoBot-L3"), "{players}");
    // The unfinished game stays on the board, filed nowhere; the next player sits
    // alone, and the bot comes back for it.
    assert!(server.server.results.recent(10).is_empty());
    let (mut dan, welcome) = join(&server, "Dan");
    assert_eq!(
        welcome,
        [
            "ID: 4",
            "ClearPlayers",
            "AddPlayer: Dan",
            "BlackPlayer: Dan",
            "WhitePlayer:"
        ]
    );
    expect_bot_arrives(&mut dan, "GoBot-L3", "White");
}

#[test]
fn the_console_seats_the_bot_at_once_says_why_not_and_kicks_it_with_its_opponent() {
    let server = TestServer::serving(settings(5, None, Some(64)), &[Protocol::Bkgo]);
    let operator = Console::new(&server.server);
    assert_eq!(
        console(&operator, "bot bkgo"),
        "nobody is seated in the Bkgo room: the practice bot takes the free seat opposite a seated player"
    );
    let (mut ann, _) = join(&server, "Ann");
    assert_eq!(
        console(&operator, "bot bkgo 9"),
        "the bot's level is a whole number from 1 to 5, got '9': usage: bot <game id> [level]"
    );
    assert_eq!(
        console(&operator, "bot bkgo 1"),
        "the practice bot GoBot-L1 takes the white seat of the Bkgo room"
    );
    expect_bot_arrives(&mut ann, "GoBot-L1", "White");
    assert_eq!(
        console(&operator, "bot bkgo"),
        "the Bkgo room's seats are taken (Ann (black) vs GoBot-L1 (white)): the practice bot only takes a free seat opposite a seated player"
    );
    // The console lists it as a player without a connection.
    let players = console_until(&operator, "players", |a| a.contains("GoBot-L1"));
    let row = players
        .lines()
        .find(|l| l.starts_with("GoBot-L1"))
        .unwrap_or_else(|| panic!("no bot row in\n{players}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[..5], ["GoBot-L1", "bkgo", "(bot)", "white", "bkgo"]);
    let games = console(&operator, "games");
    assert!(
        games.contains("Ann (black) vs GoBot-L1 (white), 0 watching"),
        "{games}"
    );
    assert!(
        console(&operator, "kick GoBot-L1").starts_with(
            "GoBot-L1 is the server's practice bot in game bkgo: it has no connection"
        ),
    );
    let mut board = Board::new(5);
    ann.send("Place: 2, 2");
    ann.expect("Place: 2, 2");
    board.place(2, 2);
    bot_move(&mut [&mut ann], &mut board);
    // `kick bkgo` kicks both seated players, the bot too.
    assert_eq!(
        console(&operator, "kick bkgo"),
        "kicked Ann and GoBot-L1 from the Bkgo room: the seats go to the longest-waiting watchers"
    );
    ann.expect("Dialog: You were kicked out of the room by the operator");
    ann.expect("ServerRejectedFatal");
    ann.expect_closed();
    let (mut dan, welcome) = join(&server, "Dan");
    assert_eq!(
        welcome,
        [
            "ID: 3",
            "ClearPlayers",
            "AddPlayer: Dan",
            "BlackPlayer: Dan",
            "WhitePlayer:"
        ]
    );
    // A game that is over gets no bot: a loaded record that ends in two passes, on
    // a new board (Ann's game is still on this one).
    dan.send("NewBoard");
    while dan.recv() != "EOF" {}
    dan.send("SendingBoard");
    dan.send("(;FF[4]SZ[5];B[];W[])");
    dan.send("EOF");
    dan.expect("Board:");
    while dan.recv() != "EOF" {}
    dan.expect_prefix("Dialog: Game over: the loaded board ends with two passes.");
    assert_eq!(
        console(&operator, "bot bkgo"),
        "the Bkgo room's game is over: the practice bot sits down for a game in progress (a seated player's NewBoard starts one)"
    );
}

#[test]
fn the_bot_plays_a_loaded_position_and_stays_for_a_new_board() {
    let server = room(settings(5, None, Some(64)));
    let operator = Console::new(&server.server);
    let (mut ann, _) = join(&server, "Ann");
    assert_eq!(
        console(&operator, "bot bkgo"),
        "the practice bot GoBot-L3 takes the white seat of the Bkgo room"
    );
    expect_bot_arrives(&mut ann, "GoBot-L3", "White");
    // A position the bot has never seen, white to move: it moves at once.
    ann.send("SendingBoard");
    ann.send("(;FF[4]SZ[5]AB[aa][bb][cc]AW[ee][dd]PL[W])");
    ann.send("EOF");
    ann.expect("Board:");
    while ann.recv() != "EOF" {}
    let mut board = Board::new(5);
    for (x, y) in [(0, 0), (1, 1), (2, 2), (4, 4), (3, 3)] {
        board.place(x, y);
    }
    bot_move(&mut [&mut ann], &mut board);
    // NewBoard works as with a human partner: a new game, the bot in its seat.
    ann.send("NewBoard");
    for line in [
        "ClearPlayers",
        "AddPlayer: Ann",
        "AddPlayer: GoBot-L3",
        "BlackPlayer: Ann",
        "WhitePlayer: GoBot-L3",
        "Board:",
    ] {
        ann.expect(line);
    }
    while ann.recv() != "EOF" {}
    let mut board = Board::new(5);
    ann.send("Place: 2, 2");
    ann.expect("Place: 2, 2");
    board.place(2, 2);
    bot_move(&mut [&mut ann], &mut board);
}

#[test]
fn new_boards_faster_than_the_bot_thinks_get_it_to_move_on_the_last_one() {
    let mut settings = settings(9, None, None);
    settings.bot_level = Level::STRONGEST;
    settings.bot_think = Duration::from_millis(1000);
    let server = room(settings);
    let operator = Console::new(&server.server);
    // Bob is left alone in the white seat: the bot takes black, and moves first.
    let (mut ann, _) = join(&server, "Ann");
    let (mut bob, _) = join(&server, "Bob");
    ann.send("Quitting: 1");
    while ann.recv() != "WhitePlayer: Bob" {}
    ann.expect_closed();
    bob.expect("GoodbyePlayer: Ann");
    bob.expect("BlackPlayer:");
    assert_eq!(
        console(&operator, "bot bkgo"),
        "the practice bot GoBot-L5 takes the black seat of the Bkgo room"
    );
    expect_bot_arrives(&mut bob, "GoBot-L5", "Black");
    // By now its thread thinks about the first board, for a second. Ten new games
    // meanwhile: more questions than its channel holds, all stale but the last,
    // which it answers next.
    std::thread::sleep(Duration::from_millis(200));
    let burst = Instant::now();
    for _ in 0..10 {
        bob.send("NewBoard");
    }
    let mut boards = 0;
    while boards < 10 {
        if bob.recv() == "EOF" {
            boards += 1;
        }
    }
    bot_move(&mut [&mut bob], &mut Board::new(9));
    assert!(burst.elapsed() >= Duration::from_millis(1000));
}
