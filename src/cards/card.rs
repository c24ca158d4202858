//! One client's report card: what a name did over the life of the server, in one
//! front end. Every count is an atomic, so recording never waits for a reader; only
//! the first three examples of each kind of mistake take a lock, so a client that
//! makes a million mistakes takes it three times per kind.

use super::counters::Counters;
use super::mistake::Mistake;
use super::times::{MoveTimes, TimesSummary};
use crate::front::Front;
use parking_lot::Mutex;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};
use time::OffsetDateTime;

/// Examples kept of each kind of mistake: the first ones.
pub const EXAMPLES_PER_KIND: usize = 3;

/// The most bytes of a line (or an answer) an example keeps, cut on a character's
/// edge: bytes, not characters, so that a card's size has a bound in memory.
pub const EXAMPLE_BYTES: usize = 200;

/// One offending line: what the client sent, when, and what the server answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The kind of mistake.
    pub kind: Mistake,
    /// When it came (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// The line as it came, cut to [`EXAMPLE_BYTES`] bytes (with a note of its length
    /// when cut); for a line that is not text, or none, what it was instead in
    /// parentheses.
    pub line: String,
    /// What the server answered (its first line), cut the same way; empty if nothing.
    pub answer: String,
}

/// A run of the same refused line: how many times in a row it was refused now (1 for
/// the first), and a hash of the line, to tell one run from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub length: u64,
    pub line_hash: u64,
}

impl Run {
    /// A refusal that is no run: the first of its line, or a line that cannot be told
    /// from another (too long to keep, not text, silence).
    pub const ONCE: Run = Run {
        length: 1,
        line_hash: 0,
    };
}

/// What a client sent that a mistake is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offending<'a> {
    /// A line of text.
    Line(&'a str),
    /// A line longer than the server reads, of at least this many bytes.
    TooLong(usize),
    /// A line that is not UTF-8 text.
    NotText,
    /// No line: the client was silent (a timeout).
    Silence,
}

impl Offending<'_> {
    /// The line as an example shows it.
    fn shown(self) -> String {
        match self {
            Offending::Line(line) => clip(line),
            Offending::TooLong(bytes) => format!("(a line of more than {bytes} bytes)"),
            Offending::NotText => "(a line that is not UTF-8 text)".into(),
            Offending::Silence => "(nothing: silence)".into(),
        }
    }
}

/// How a finished game went for this client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
}

/// A report card.
pub struct Card {
    /// The front end it belongs to.
    pub front: Front,
    /// The client's name (granted by the server), or `(unnamed) <address>` for a
    /// client that never named itself.
    pub name: Box<str>,
    first_seen: SystemTime,
    /// When it last did anything (Unix milliseconds): the idlest card is forgotten first.
    last_seen_ms: AtomicU64,
    /// Bumped by every change: a view can tell that nothing changed without a lock.
    changes: AtomicU64,
    connections: AtomicU64,
    games: AtomicU64,
    wins: AtomicU64,
    losses: AtomicU64,
    draws: AtomicU64,
    moves: AtomicU64,
    late_moves: AtomicU64,
    games_left: AtomicU64,
    /// Taken at the first mistake: most cards never need it.
    mistakes: Counters<{ Mistake::COUNT }>,
    examples: Mutex<Vec<Example>>,
    longest_repeat: AtomicU64,
    /// The hash of the line of the longest run: its line is kept once per run, not at
    /// every refusal of it.
    repeated_hash: AtomicU64,
    repeated_line: Mutex<Option<String>>,
    move_times: MoveTimes,
}

impl Card {
    /// A fresh card for `name` in `front`.
    pub fn new(front: Front, name: &str) -> Card {
        let now = SystemTime::now();
        Card {
            front,
            name: name.into(),
            first_seen: now,
            last_seen_ms: AtomicU64::new(unix_ms(now)),
            changes: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            games: AtomicU64::new(0),
            wins: AtomicU64::new(0),
            losses: AtomicU64::new(0),
            draws: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            late_moves: AtomicU64::new(0),
            games_left: AtomicU64::new(0),
            mistakes: Counters::default(),
            examples: Mutex::new(Vec::new()),
            longest_repeat: AtomicU64::new(0),
            repeated_hash: AtomicU64::new(0),
            repeated_line: Mutex::new(None),
            move_times: MoveTimes::default(),
        }
    }

    /// A mistake of `kind`: `line` was refused with `answer`, in `run`.
    pub fn mistake(&self, kind: Mistake, line: Offending<'_>, answer: &str, run: Run) {
        let seen = self.mistakes.add(kind.index(), 1);
        if seen < EXAMPLES_PER_KIND as u64 {
            self.examples.lock().push(Example {
                kind,
                at: OffsetDateTime::now_utc(),
                line: line.shown(),
                answer: clip(answer.lines().next().unwrap_or("")),
            });
        }
        let record = self.longest_repeat.fetch_max(run.length, Ordering::Relaxed);
        // A run of one is no run; a record run that goes on has its line kept already.
        if run.length > record.max(1)
            && self.repeated_hash.swap(run.line_hash, Ordering::Relaxed) != run.line_hash
        {
            *self.repeated_line.lock() = Some(line.shown());
        }
        self.touch();
    }

    /// A move accepted, `took` after the client was told it was its turn.
    pub fn moved(&self, took: Duration) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        self.move_times.record(took);
        self.touch();
    }

    /// A move accepted whose wait is not known (a move that needs no turn).
    pub fn moved_untimed(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// A move not made in time (`--move-timeout`).
    pub fn late(&self) {
        self.late_moves.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// A game left while it was being played (a disconnect, EXIT, a kick).
    pub fn left_a_game(&self) {
        self.games_left.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// A connection that took this name.
    pub fn connected(&self) {
        self.connections.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// A finished game.
    pub fn finished(&self, outcome: Outcome) {
        self.games.fetch_add(1, Ordering::Relaxed);
        let counter = match outcome {
            Outcome::Won => &self.wins,
            Outcome::Lost => &self.losses,
            Outcome::Drawn => &self.draws,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// Adds what `early` (a card kept for a client before it had a name) holds to
    /// this card.
    pub fn absorb(&self, early: &Card) {
        let add = |mine: &AtomicU64, theirs: &AtomicU64| {
            mine.fetch_add(theirs.load(Ordering::Relaxed), Ordering::Relaxed);
        };
        add(&self.moves, &early.moves);
        add(&self.late_moves, &early.late_moves);
        add(&self.games_left, &early.games_left);
        self.mistakes.absorb(&early.mistakes);
        let theirs = early.examples.lock().clone();
        {
            let mut examples = self.examples.lock();
            for example in theirs {
                let held = examples.iter().filter(|e| e.kind == example.kind).count();
                if held < EXAMPLES_PER_KIND {
                    examples.push(example);
                }
            }
        }
        let repeat = early.longest_repeat.load(Ordering::Relaxed);
        if repeat > self.longest_repeat.fetch_max(repeat, Ordering::Relaxed) {
            self.repeated_hash.store(
                early.repeated_hash.load(Ordering::Relaxed),
                Ordering::Relaxed,
            );
            *self.repeated_line.lock() = early.repeated_line.lock().clone();
        }
        self.move_times.absorb(&early.move_times);
        self.touch();
    }

    /// When it last did anything (Unix milliseconds).
    pub fn last_seen_ms(&self) -> u64 {
        self.last_seen_ms.load(Ordering::Relaxed)
    }

    /// Bumped by every change.
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }

    /// Every mistake counted, of every kind.
    pub fn mistakes_total(&self) -> u64 {
        self.mistakes.all().iter().sum()
    }

    /// The card as it is now, whole, for a card's own view.
    pub fn view(&self) -> CardView {
        let mut view = self.row();
        let mut examples = self.examples.lock().clone();
        examples.sort_by_key(|e| (e.kind, e.at));
        view.examples = examples;
        view
    }

    /// The card as it is now without its examples, for the lists (a row of a table,
    /// of the CSV): nothing is copied that they would drop.
    pub fn row(&self) -> CardView {
        let mistakes: Vec<KindCount> = Mistake::ALL
            .iter()
            .map(|&kind| KindCount {
                kind,
                count: self.mistakes.get(kind.index()),
            })
            .filter(|k| k.count > 0)
            .collect();
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        CardView {
            front: self.front,
            name: self.name.to_string(),
            first_seen: OffsetDateTime::from(self.first_seen),
            last_seen: from_unix_ms(load(&self.last_seen_ms)),
            connections: load(&self.connections),
            games: load(&self.games),
            wins: load(&self.wins),
            losses: load(&self.losses),
            draws: load(&self.draws),
            moves: load(&self.moves),
            late_moves: load(&self.late_moves),
            games_left: load(&self.games_left),
            mistakes_total: mistakes.iter().map(|k| k.count).sum(),
            mistakes,
            examples: Vec::new(),
            longest_repeat: load(&self.longest_repeat),
            // A "run" of one is no run: the line is shown from two in a row.
            repeated_line: (load(&self.longest_repeat) > 1)
                .then(|| self.repeated_line.lock().clone())
                .flatten(),
            move_times: self.move_times.summary(),
        }
    }

    fn touch(&self) {
        self.changes.fetch_add(1, Ordering::Relaxed);
        self.last_seen_ms
            .store(unix_ms(SystemTime::now()), Ordering::Relaxed);
    }
}

/// How many mistakes of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KindCount {
    pub kind: Mistake,
    pub count: u64,
}

/// A card as the views show it (docs/report.md describes each field).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardView {
    pub front: Front,
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    pub first_seen: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_seen: OffsetDateTime,
    pub connections: u64,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub moves: u64,
    pub late_moves: u64,
    pub games_left: u64,
    pub mistakes_total: u64,
    /// Each kind that happened, with its count, in the order of docs/report.md.
    pub mistakes: Vec<KindCount>,
    /// The first three examples of each kind, by kind, then by time (none in a row
    /// of a list: [`Card::row`]).
    pub examples: Vec<Example>,
    /// The longest run of the same refused line in a row.
    pub longest_repeat: u64,
    /// That line, from a run of two.
    pub repeated_line: Option<String>,
    pub move_times: TimesSummary,
}

impl CardView {
    /// How bad the card looks, for "the worst first": every mistake, and each move
    /// not made in time and each game left mid-play as ten.
    pub fn badness(&self) -> u64 {
        self.mistakes_total + 10 * (self.late_moves + self.games_left)
    }

    /// The count of `kind`.
    pub fn count(&self, kind: Mistake) -> u64 {
        self.mistakes
            .iter()
            .find(|k| k.kind == kind)
            .map_or(0, |k| k.count)
    }

    /// The kind it made most often, if any (the first in the list on a tie).
    pub fn top_mistake(&self) -> Option<KindCount> {
        self.mistakes
            .iter()
            .copied()
            .reduce(|best, k| if k.count > best.count { k } else { best })
    }
}

/// `text` cut to [`EXAMPLE_BYTES`] bytes on a character's edge, saying how long it
/// was when cut.
fn clip(text: &str) -> String {
    if text.len() <= EXAMPLE_BYTES {
        return text.to_string();
    }
    let cut = text.floor_char_boundary(EXAMPLE_BYTES);
    format!("{}… ({} bytes in all)", &text[..cut], text.len())
}

fn unix_ms(at: SystemTime) -> u64 {
    at.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn from_unix_ms(ms: u64) -> OffsetDateTime {
    OffsetDateTime::from(SystemTime::UNIX_EPOCH + Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_first_three_examples_of_each_kind_and_the_longest_repeat() {
        let card = Card::new(Front::Go, "Ann");
        for length in 1..=20 {
            card.mistake(
                Mistake::NotYourTurn,
                Offending::Line("MOVE+1+Ann+3"),
                "INVALID_MOVE+Not your turn: white is to move\n",
                Run {
                    length,
                    line_hash: 3,
                },
            );
        }
        // A shorter run of another line keeps the record's line.
        for length in 1..=5 {
            card.mistake(
                Mistake::NotYourTurn,
                Offending::Line("MOVE+1+Ann+4"),
                "INVALID_MOVE+Not your turn: white is to move\n",
                Run {
                    length,
                    line_hash: 4,
                },
            );
        }
        card.mistake(
            Mistake::OffBoard,
            Offending::Line("MOVE+1+Ann+99"),
            "INVALID_MOVE+off",
            Run::ONCE,
        );
        card.mistake(
            Mistake::LineTooLong,
            Offending::TooLong(4096),
            "UNKNOWN_COMMAND+long",
            Run::ONCE,
        );
        let view = card.view();
        assert_eq!(view.mistakes_total, 27);
        assert_eq!(view.count(Mistake::NotYourTurn), 25);
        assert_eq!(
            view.top_mistake().map(|k| k.kind),
            Some(Mistake::NotYourTurn)
        );
        let turns: Vec<&Example> = view
            .examples
            .iter()
            .filter(|e| e.kind == Mistake::NotYourTurn)
            .collect();
        assert_eq!(turns.len(), 3);
        assert_eq!(turns[0].line, "MOVE+1+Ann+3");
        assert_eq!(
            turns[0].answer,
            "INVALID_MOVE+Not your turn: white is to move"
        );
        assert_eq!(view.longest_repeat, 20);
        assert_eq!(view.repeated_line.as_deref(), Some("MOVE+1+Ann+3"));
        assert!(card.row().examples.is_empty(), "a row has no examples");
        assert_eq!(card.row().mistakes_total, 27);
        // Another line that beats the record is the record's line from then on.
        for length in 1..=21 {
            card.mistake(
                Mistake::OffBoard,
                Offending::Line("MOVE+1+Ann+99"),
                "INVALID_MOVE+off",
                Run {
                    length,
                    line_hash: 99,
                },
            );
        }
        let view = card.view();
        assert_eq!(view.longest_repeat, 21);
        assert_eq!(view.repeated_line.as_deref(), Some("MOVE+1+Ann+99"));
        let long = view
            .examples
            .iter()
            .find(|e| e.kind == Mistake::LineTooLong);
        assert_eq!(
            long.map(|e| e.line.as_str()),
            Some("(a line of more than 4096 bytes)")
        );
    }

    #[test]
    fn a_long_line_is_cut_and_says_its_length() {
        let card = Card::new(Front::Go, "Ann");
        // 'a' and then two-byte characters: byte 200 falls inside one, so the cut
        // comes before it, after 'a' and 99 of them (199 bytes).
        let line = format!("a{}", "é".repeat(1000));
        card.mistake(
            Mistake::UnknownCommand,
            Offending::Line(&line),
            "",
            Run::ONCE,
        );
        let example = &card.view().examples[0];
        let kept = format!("a{}", "é".repeat(99));
        assert!(
            example.line.starts_with(&format!("{kept}…")),
            "{}",
            example.line
        );
        assert!(
            example.line.ends_with("… (2001 bytes in all)"),
            "{}",
            example.line
        );
    }

    #[test]
    fn an_early_card_adds_to_the_named_one() {
        let early = Card::new(Front::Go, "(unnamed)");
        early.mistake(
            Mistake::BeforeHandshake,
            Offending::Line("MOVE+1+x+0"),
            "UNKNOWN_COMMAND+x",
            Run::ONCE,
        );
        let card = Card::new(Front::Go, "Ann");
        card.moved(Duration::from_millis(5));
        card.absorb(&early);
        let view = card.view();
        assert_eq!(view.count(Mistake::BeforeHandshake), 1);
        assert_eq!(view.examples.len(), 1);
        assert_eq!(view.moves, 1);
        card.finished(Outcome::Won);
        card.finished(Outcome::Drawn);
        let view = card.view();
        assert_eq!((view.games, view.wins, view.draws), (2, 1, 1));
    }
}
