//! GoBot's helper thread: one per seat the bot takes (a GO! game, the Bkgo room), so
//! that its thinking never holds up the loop it plays in, which must answer a move, a
//! kick, the console or the shutdown at once.
//!
//! Owns the thread and the two channels to it: the loop asks about a position
//! ([`Question`]), the thread answers with a move for that position ([`Answer`]). It
//! knows no protocol: the loop decides when to ask, and whether an answer is still
//! about the current position when it arrives.

use crate::engine::bot::{Bot, Budget, Level, Summary};
use crate::engine::go::{Colour, Game, IllegalMove, Move};
use crossbeam_channel::{Receiver, Sender, TrySendError};
use std::io;
use std::thread;
use std::time::{Duration, Instant};

/// Which position of a game a question is about: the round (GO!'s rematches, the Bkgo
/// room's game number: both count up) and the number of moves played in it. A game
/// never comes back to the same turn, so an answer for another turn is stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The round of the game, 1 for the first.
    pub round: u32,
    /// Moves played in that round, passes included.
    pub ply: usize,
}

/// A position to think about.
pub struct Question {
    /// Which position it is, to match the answer.
    pub turn: Turn,
    /// The game, with the bot to move.
    pub game: Game,
    /// The bot's colour.
    pub colour: Colour,
    /// How long to think (the deadline runs from when the question was asked).
    pub budget: Budget,
}

/// A move chosen for a position.
pub struct Answer {
    /// The position it was chosen for.
    pub turn: Turn,
    /// The move, or why no move was legal.
    pub chosen: Result<Move, IllegalMove>,
    /// What the search did (playouts, candidates, estimated value).
    pub summary: Summary,
    /// How long it thought.
    pub took: Duration,
}

/// Questions (and answers) waiting between a loop and its bot. The loop asks once per
/// position, and only on the bot's turn, which does not come again before the bot has
/// answered, but for a new round asked while the bot still thinks about the last one
/// (GO!'s rematch: two at the most). In the Bkgo room a player may start new games
/// (`NewBoard`) faster than the bot thinks: then the questions waiting are stale, and
/// the new one replaces them (see [`Thinker::ask`]).
const QUESTIONS_BOUND: usize = 2;

/// The loop's end of a bot's helper thread.
///
/// Dropping it ends the thread: the thread finishes the question it is thinking
/// about, if any (bounded by its budget), finds no one to answer, and returns. So a
/// bot thread outlives its game by at most one think.
pub struct Thinker {
    questions: Sender<Question>,
    /// The thread's end of `questions` too, to drop the stale questions waiting there
    /// when it is full.
    waiting: Receiver<Question>,
    answers: Receiver<Answer>,
}

impl Thinker {
    /// Starts a bot's helper thread, named `thread` (`bot-<game id>`, `bkgo-bot`),
    /// playing at `level`, whose random choices all follow from `seed`. The thread owns
    /// the bot, and so its search tree, which it keeps from one question to the next.
    ///
    /// # Errors
    ///
    /// When the thread cannot be created.
    pub fn spawn(thread: String, seed: u64, level: Level) -> io::Result<Thinker> {
        let (questions, asked) = crossbeam_channel::bounded::<Question>(QUESTIONS_BOUND);
        let (answer, answers) = crossbeam_channel::bounded::<Answer>(QUESTIONS_BOUND);
        let waiting = asked.clone();
        thread::Builder::new()
            .name(thread)
            .spawn(move || think(&mut Bot::new(seed, level), &asked, &answer))?;
        Ok(Thinker {
            questions,
            waiting,
            answers,
        })
    }

    /// Asks for a move; the answer comes on [`answers`](Self::answers). Never waits:
    /// questions still waiting when the channel is full are older than this one, so
    /// they are dropped for it (the thread answers only the latest anyway).
    pub fn ask(&self, question: Question) {
        // Disconnected means the thread ended on a bug, which the loop sees on the
        // answers channel.
        if let Err(TrySendError::Full(question)) = self.questions.try_send(question) {
            let stale = self.waiting.try_iter().count();
            log::debug!(
                "the bot's questions were {QUESTIONS_BOUND} behind: {stale} stale ones dropped for move {}",
                question.turn.ply + 1
            );
            // Only this end sends: the slots just emptied are still free.
            let _ = self.questions.try_send(question);
        }
    }

    /// Where the answers come, one per question (the latest question, when several
    /// were waiting).
    pub fn answers(&self) -> &Receiver<Answer> {
        &self.answers
    }
}

/// The helper thread: answers questions until the loop drops its end.
fn think(bot: &mut Bot, asked: &Receiver<Question>, answer: &Sender<Answer>) {
    while let Ok(mut question) = asked.recv() {
        // Only the latest position matters: the others are stale already.
        while let Ok(newer) = asked.try_recv() {
            question = newer;
        }
        let started = Instant::now();
        let chosen = bot.choose(&question.game, question.colour, question.budget);
        let reply = Answer {
            turn: question.turn,
            chosen,
            summary: bot.summary(),
            took: started.elapsed(),
        };
        if answer.send(reply).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::Rules;

    fn question(ply: usize, game: &Game) -> Question {
        Question {
            turn: Turn { round: 1, ply },
            game: game.clone(),
            colour: game.to_move(),
            budget: Budget::playouts(20),
        }
    }

    #[test]
    fn answers_each_question_with_its_turn_and_a_legal_move() {
        let thinker = Thinker::spawn("bot-test-1".into(), 7, Level::DEFAULT).expect("a thread");
        let mut game = Game::new(5, Rules::default()).expect("5x5");
        for ply in 0..4 {
            thinker.ask(question(ply, &game));
            let answer = thinker.answers().recv().expect("an answer");
            assert_eq!(answer.turn, Turn { round: 1, ply });
            let mv = answer.chosen.expect("a move");
            assert_eq!(game.check(game.to_move(), mv), Ok(()));
            // The search may stop early once its choice is settled.
            assert!(
                (1..=20).contains(&answer.summary.playouts),
                "{:?}",
                answer.summary
            );
            game.play(game.to_move(), mv).expect("legal");
        }
    }

    #[test]
    fn a_burst_of_new_games_is_answered_for_the_latest_and_never_stalls() {
        let thinker = Thinker::spawn("bot-test-3".into(), 7, Level::STRONGEST).expect("a thread");
        let game = Game::new(9, Rules::default()).expect("9x9");
        // The strongest level thinks to the end of its time: the thread is busy...
        thinker.ask(Question {
            budget: Budget::until(Instant::now() + Duration::from_millis(300)),
            ..question(0, &game)
        });
        std::thread::sleep(Duration::from_millis(50));
        // ... while nine new games (the Bkgo room's NewBoard) fill its channel.
        for round in 2..=10 {
            thinker.ask(Question {
                turn: Turn { round, ply: 0 },
                ..question(0, &game)
            });
        }
        let latest = Turn { round: 10, ply: 0 };
        let patience = Instant::now() + Duration::from_secs(20);
        loop {
            let left = patience.saturating_duration_since(Instant::now());
            let answer = thinker.answers().recv_timeout(left).expect("an answer");
            if answer.turn == latest {
                break;
            }
        }
    }

    #[test]
    fn a_game_with_no_legal_move_gets_the_reason() {
        let thinker = Thinker::spawn("bot-test-2".into(), 7, Level::DEFAULT).expect("a thread");
        let mut game = Game::new(2, Rules::default()).expect("2x2");
        game.play(Colour::Black, Move::Pass).expect("pass");
        game.play(Colour::White, Move::Pass).expect("pass");
        thinker.ask(question(2, &game));
        let answer = thinker.answers().recv().expect("an answer");
        assert_eq!(answer.chosen, Err(IllegalMove::GameOver));
    }
}
