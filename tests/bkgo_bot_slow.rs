//! The practice bot in a 19x19 Bkgo room at level 5, which thinks to the end of its
//! time: each of its moves arrives within `--bot-think-ms` and a small margin, on a
//! position it has never seen too, and the room answers its other members meanwhile
//! (the bot thinks on its own thread). In a test program of its own, so that no other
//! test competes for the cores while it measures.

mod bkgo_support;
mod common;

use bkgo_support::*;
use common::Client;
use goserver::console::Console;
use goserver::engine::bot::Level;
use std::time::{Duration, Instant};

/// How long the bot thinks, and how much later than that its move may arrive: the
/// level has no playout cap, so only the deadline ends its search; the margin is
/// generous for a busy machine (beside two CPU-bound loops the move came at most
/// 68 ms late).
const THINK: Duration = Duration::from_millis(1000);
const MARGIN: Duration = Duration::from_millis(1000);

/// After `sent` (a move that gives the bot the turn), the watcher `cat` chats: the
/// room answers while the bot thinks, before the bot's move (the next line is the
/// chat) and before the bot's deadline; the move arrives within its think time and
/// the margin. Returns the bot's line.
fn bot_answers_in_time(
    ann: &mut Client,
    cat: &mut Client,
    board: &mut Board,
    sent: Instant,
) -> String {
    cat.send("Message: still thinking?");
    all(&mut [&mut *ann, &mut *cat], "Message: Cat: still thinking?");
    let chat = sent.elapsed();
    assert!(chat < THINK, "the room answered chat after {chat:?}");
    let line = bot_move(&mut [ann, cat], board);
    let took = sent.elapsed();
    assert!(
        took <= THINK + MARGIN,
        "the bot's move {line:?} came after {took:?}"
    );
    line
}

#[test]
fn on_19x19_at_level_5_the_bot_moves_in_time_and_never_holds_up_the_room() {
    let mut settings = settings(19, None, None);
    settings.bot_level = Level::STRONGEST;
    settings.bot_think = THINK;
    let server = room(settings);
    let operator = Console::new(&server.server);
    let (mut ann, _) = join(&server, "Ann");
    assert_eq!(
        console(&operator, "bot bkgo"),
        "the practice bot GoBot-L5 takes the white seat of the Bkgo room"
    );
    for line in [
        "AnnouncePlayer: GoBot-L5",
        "AddPlayer: GoBot-L5",
        "WhitePlayer: GoBot-L5",
    ] {
        ann.expect(line);
    }
    let (mut cat, _) = join(&server, "Cat");
    ann.expect("AnnouncePlayer: Cat");
    ann.expect("AddPlayer: Cat");
    let mut board = Board::new(19);
    for (x, y) in [(3, 3), (15, 15), (3, 15)] {
        if !board.is_free(x, y) {
            continue;
        }
        let sent = Instant::now();
        ann.send(&format!("Place: {x}, {y}"));
        all(&mut [&mut ann, &mut cat], &format!("Place: {x}, {y}"));
        board.place(x, y);
        bot_answers_in_time(&mut ann, &mut cat, &mut board, sent);
    }
    // A position the bot has never seen, white to move, on a new board.
    ann.send("NewBoard");
    for client in [&mut ann, &mut cat] {
        while client.recv() != "EOF" {}
    }
    let setup = "(;FF[4]SZ[19]AB[dd][pd][dp][pp][jj][cq]AW[qq][qc][cc][jd][dj][pj]PL[W])";
    let sent = Instant::now();
    ann.send("SendingBoard");
    ann.send(setup);
    ann.send("EOF");
    for client in [&mut ann, &mut cat] {
        client.expect("Board:");
        while client.recv() != "EOF" {}
    }
    let mut board = Board::new(19);
    for (x, y) in [(3, 3), (15, 3), (3, 15), (15, 15), (9, 9), (2, 16)] {
        board.place(x, y);
    }
    for (x, y) in [(16, 16), (16, 2), (2, 2), (9, 3), (3, 9), (15, 9)] {
        board.place(x, y);
    }
    bot_answers_in_time(&mut ann, &mut cat, &mut board, sent);
}
