//! The end of a game on the shared board: its record and its result, then the room is
//! told. With a results file the result is synced on a thread of its own first; the
//! room does not wait for it ([`PendingEnd`]): it goes on answering chat and queries,
//! and the events that must come after the end wait in the pending end, in order.
//! That queue is the room's second way of holding senders back, beside the brake
//! (`broadcast`): each deferred line keeps its ticket, so its sender waits too.

use super::Room;
use crate::engine::go::Colour;
use crate::engine::sgf::{self, RecordInfo};
use crate::front::Front;
use crate::frontend::bkgo::event::RoomEvent;
use crate::frontend::bkgo::protocol::{ClientMessage, ServerMessage};
use crate::records;
use crate::results::{self, GameResult, result::GoGame};
use crossbeam_channel::Receiver;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

/// How a game that has ended ended: what the room was told, and the result's code.
#[derive(Clone, Debug)]
pub(super) struct GameEnd {
    /// What the room was told (`Dialog:`).
    pub(super) text: String,
    /// The SGF `RE` value: `B+3`, `W+0.5`, `0`.
    pub(super) code: String,
    /// When.
    pub(super) at: SystemTime,
}

/// How long the room waits for a finished game's result to reach the disk before it
/// tells the room anyway (and logs that the result may not be on disk): within the
/// wait of the senders whose lines wait for it (`net::handoff::ANSWER_WAIT`).
pub(super) const RESULT_WAIT: Duration = Duration::from_secs(10);

/// A game's end waiting for its result to be on disk (`--results`: ARENA.md, the result
/// is synced before the players hear the end). The room does not wait: it goes on
/// answering chat and queries, and the events that could come after the end wait here,
/// in order, their senders with them (each line's ticket is held, as by the brake). At
/// most one event per connection waits (its one line in flight, or its departure).
pub(super) struct PendingEnd {
    /// The end, to be told.
    ending: GameEnd,
    /// Disconnected by the thread that records the result, once it is on disk.
    synced: Receiver<()>,
    /// When the room tells the end anyway.
    deadline: Instant,
    /// What came meanwhile that must come after the end.
    deferred: VecDeque<RoomEvent>,
}

impl Room {
    /// The game ends on the board: its record is written, then the room hears the
    /// area score and the winner. The board stays until `NewBoard`.
    pub(super) fn end(&mut self, why: &str) {
        let score = self.game.score();
        let verdict = match score.winner() {
            Some(colour) => format!(
                "{} wins by {}",
                label(self.members.holder_name(colour).as_deref(), colour),
                score.margin()
            ),
            None => "a draw".to_string(),
        };
        let text = format!(
            "{why}. Area score: black {}, white {} (komi {}): {verdict}",
            score.black_text(),
            score.white_text(),
            self.game.rules().komi
        );
        let code = sgf::score_result(&score);
        self.record(&code);
        let _ = self.web_record.finished.set(self.sgf(&code).into());
        let kind = if self.game.is_over() {
            results::Ending::Passes
        } else {
            results::Ending::Score
        };
        self.parts
            .counters
            .games_finished
            .fetch_add(1, Ordering::Relaxed);
        log::info!("bkgo room: game {} finished: {text}", self.number);
        let ending = GameEnd {
            text,
            code,
            at: SystemTime::now(),
        };
        match self.record_result(score.winner(), kind) {
            None => self.conclude(ending),
            Some(synced) => {
                self.pending_end = Some(PendingEnd {
                    ending,
                    synced,
                    deadline: Instant::now() + RESULT_WAIT,
                    deferred: VecDeque::new(),
                });
            }
        }
    }

    /// Tells the room how the game ended; then the practice bot, if it played, leaves
    /// its seat: a human comes first for the next game.
    pub(super) fn conclude(&mut self, ending: GameEnd) {
        self.tell_end(ending);
        self.bot_leaves_after_the_end();
    }

    /// Tells the room how the game ended.
    pub(super) fn tell_end(&mut self, ending: GameEnd) {
        self.broadcast(&[ServerMessage::Dialog(ending.text.clone())]);
        self.ending = Some(ending);
    }

    /// Files the game among the results (ARENA.md: a Bkgo game is one when it ends
    /// on the board with both seats taken), before the room hears the end. With a
    /// results file, the line is appended and synced on a thread of its own, and the
    /// receiver returned is disconnected once it is on disk: the room, which every
    /// member shares, never waits for the disk.
    fn record_result(
        &self,
        winner: Option<Colour>,
        ending: results::Ending,
    ) -> Option<Receiver<()>> {
        let (Some(black), Some(white)) = (
            self.members.holder_name(Colour::Black),
            self.members.holder_name(Colour::White),
        ) else {
            log::info!(
                "bkgo room: game {} is no result: a seat was empty at its end",
                self.number
            );
            return None;
        };
        let winner = winner.map(|colour| match colour {
            Colour::Black => black.as_str(),
            Colour::White => white.as_str(),
        });
        let game = GoGame {
            front: Front::Bkgo,
            game: u64::from(self.number),
            started: self.started,
            black: &black,
            white: &white,
            position: &self.game,
        };
        let result = GameResult::of_go(&game, winner, ending);
        self.parts.cards.count_result(&result);
        if !self.parts.results.has_file() {
            self.parts.results.record(result);
            return None;
        }
        let (on_disk, synced) = crossbeam_channel::bounded::<()>(0);
        let results = Arc::clone(&self.parts.results);
        let kept = result.clone();
        let spawned = std::thread::Builder::new()
            .name("bkgo-result".into())
            .spawn(move || {
                results.record(result);
                drop(on_disk);
            });
        match spawned {
            Ok(_) => Some(synced),
            Err(e) => {
                log::error!(
                    "bkgo room: no thread to record a result ({e}): the room waits for the disk"
                );
                self.parts.results.record(kept);
                None
            }
        }
    }

    /// Hands the game's record, with result `code`, to the records writer
    /// (`--records`, if set): the room never waits for the disk.
    pub(super) fn record(&self, code: &str) {
        let Some(writer) = &self.parts.records else {
            return;
        };
        let file_name = format!("bkgo-{}-{}.sgf", records::unix_seconds(), self.number);
        writer.save(
            file_name,
            self.sgf(code),
            format!("bkgo game {}", self.number),
        );
    }

    /// The game's SGF, with result `code` (empty while it goes on).
    pub(super) fn sgf(&self, code: &str) -> String {
        let black = self.members.holder_name(Colour::Black).unwrap_or_default();
        let white = self.members.holder_name(Colour::White).unwrap_or_default();
        sgf::write(
            &self.game,
            &RecordInfo {
                black: &black,
                white: &white,
                result: code,
                started: self.started,
            },
        )
    }

    /// Ready (disconnected) once the pending end's result is on disk; never without one.
    pub(super) fn result_synced(&self) -> Receiver<()> {
        self.pending_end
            .as_ref()
            .map_or_else(crossbeam_channel::never, |p| p.synced.clone())
    }

    /// Fires at the pending end's deadline; never without one.
    pub(super) fn result_deadline(&self) -> Receiver<Instant> {
        self.pending_end
            .as_ref()
            .map_or_else(crossbeam_channel::never, |p| {
                crossbeam_channel::at(p.deadline)
            })
    }

    /// Tells the room the end that waited for its result (the bot then leaves), then
    /// handles what waited for it, in order.
    pub(super) fn tell_pending_end(&mut self) {
        let Some(pending) = self.pending_end.take() else {
            return;
        };
        self.conclude(pending.ending);
        for event in pending.deferred {
            self.handle(event);
        }
    }

    /// The server shuts down: an end still waiting for the disk is told now (its
    /// result is written on); what waited for it is not handled.
    pub(super) fn tell_pending_end_at_shutdown(&mut self) {
        if let Some(pending) = self.pending_end.take() {
            self.tell_end(pending.ending);
        }
    }

    /// While a game's end waits for its result, an event that must come after the end
    /// waits with it (see [`comes_after_the_end`]); returns the event when it is to be
    /// handled now.
    pub(super) fn unless_deferred(&mut self, event: RoomEvent) -> Option<RoomEvent> {
        if let Some(pending) = &mut self.pending_end
            && comes_after_the_end(&event)
        {
            pending.deferred.push_back(event);
            return None;
        }
        Some(event)
    }
}

/// Whether `event` must wait for a game's end to be told: everything but chat, which
/// changes nothing of the game, and the questions of `status` and the console.
fn comes_after_the_end(event: &RoomEvent) -> bool {
    !matches!(
        event,
        RoomEvent::Line {
            message: Ok(ClientMessage::Message(_)),
            ..
        } | RoomEvent::Status(_)
            | RoomEvent::Inspect(_)
    )
}

/// `"Ann (black)"`, or `"black"` when the seat is free.
fn label(name: Option<&str>, colour: Colour) -> String {
    match name {
        Some(name) => format!("{name} ({colour})"),
        None => colour.to_string(),
    }
}
