//! The one path a client's lines take to the thread that answers them, in every front
//! end: bounded, in order, and with TCP itself as the brake.
//!
//! A connection thread reads one line of its client, hands the event it makes to the
//! thread that owns the game (a game loop, the Bkgo room) through that thread's
//! [`Inbox`], and goes back to reading; once the next line is there, it waits until
//! the last event has been handled before it handles the next line. The event carries
//! a [`Ticket`]; the game drops it once it has answered the line ([`Awaited::wait`]
//! returns then). (Waiting only when the next line is there, not at once, spares a
//! client that waits for each answer before it sends again a wake-up of its thread
//! per line: see `net::reader`.) Three things follow, and this is the lesson of
//! blocking design the server is read to teach:
//!
//! - **In order.** A client's answers come in the order of its lines, wherever each
//!   line is answered (the registry, its game, the next game after a rematch was
//!   declined): the next line is not handed over, nor even looked at, before the last
//!   one is answered. Its departure is handed over the same way, after its last line.
//! - **Bounded.** Each client has at most one line in flight. An inbox holds at most
//!   one event per client that talks to it (plus a few of the server's own), so its
//!   bound is a small named number: a game's is never reached (two players), and the
//!   Bkgo room's (1,024, shared by every member) only when over a thousand members
//!   talk at once, when their connection threads wait their turn; and the rest of a
//!   flooding client's lines stay where they were sent from: in the kernel's socket
//!   buffers, then in the client itself, whose writes block once TCP's window is
//!   full (the connection thread holds at most one line read ahead, within the line
//!   bound). Nothing queues without a bound, and no valid line is dropped.
//! - **Fair.** An inbox is first come, first served, and a flooder has one line in it
//!   at a time: a neighbour's move waits behind at most one line of each other client.
//!
//! Whoever must never block (a registry under its lock, a game loop, the console)
//! puts events in with [`Inbox::post`], which fails rather than wait; connection
//! threads, which may wait, use [`Inbox::hand_over`].
//!
//! The same brake works on the way out. A loop that broadcasts (the Bkgo room, a
//! Spectrangle table) sends every member each line without waiting; should a member
//! read slower than the others send, its outbox grows. So while any member is behind,
//! the loop holds the tickets of the lines it answers ([`Brake`]): their senders wait,
//! the loop does not, and a broadcast goes at the pace of its slowest reader. A reader
//! that stops altogether is dropped by the outbox's stall rule, which ends the wait.

use super::{CloseReason, Connection};
use crate::shutdown::Shutdown;
use crossbeam_channel::{
    Receiver, RecvTimeoutError, SendTimeoutError, Sender, TrySendError, bounded,
};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest a connection thread waits for its line to be answered. A game answers
/// an event in microseconds (its sends never block); the slowest is the end of a game
/// whose record or result is written to disk first. Past this, the game is stuck (a
/// bug): the wait gives up, says so in the log, and closes the connection.
pub const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// Travels inside the event a client's line became; dropping it says the line has
/// been answered, and the client's connection thread reads the next one.
///
/// An event that is thrown away unanswered (its game has ended and the event could
/// not be passed on) drops it too: the client is not left waiting either way.
#[derive(Debug)]
pub struct Ticket {
    _dropped_when_answered: Sender<()>,
}

/// The connection thread's side of a [`Ticket`].
#[derive(Debug)]
#[must_use = "a line handed over is waited for before the next is read"]
pub struct Awaited(Receiver<()>);

/// A ticket for one line, and what its connection thread waits on.
pub fn ticket() -> (Ticket, Awaited) {
    // Nothing is ever sent: the channel disconnects when the ticket is dropped.
    let (sender, receiver) = bounded(0);
    (
        Ticket {
            _dropped_when_answered: sender,
        },
        Awaited(receiver),
    )
}

impl Awaited {
    /// Whether the line has been answered already (its ticket dropped); never waits.
    pub fn is_answered(&self) -> bool {
        matches!(
            self.0.try_recv(),
            Err(crossbeam_channel::TryRecvError::Disconnected)
        )
    }

    /// Waits until the line's ticket has been dropped (the line answered), at most
    /// [`ANSWER_WAIT`].
    ///
    /// # Errors
    ///
    /// [`NotAnswered`] when the wait gave up: it has been logged, and `conn` closed
    /// (its next lines could not be answered in order any more).
    pub fn wait(self, conn: &Connection) -> Result<(), NotAnswered> {
        match self.0.recv_timeout(ANSWER_WAIT) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => Ok(()),
            Err(RecvTimeoutError::Timeout) => {
                log::warn!(
                    "{}: its line was not answered within {} s (its game is stuck): closing the connection",
                    conn.label(),
                    ANSWER_WAIT.as_secs()
                );
                conn.close(CloseReason::NotAnswered(ANSWER_WAIT));
                Err(NotAnswered)
            }
        }
    }
}

/// A line was not answered within [`ANSWER_WAIT`]; the connection has been closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAnswered;

/// How often a loop holding tickets looks again whether its readers caught up.
pub const BRAKE_RECHECK: Duration = Duration::from_millis(5);

/// The tickets a broadcasting loop holds back while one of its readers is behind (see
/// the module's doc): the senders of those lines wait; the loop goes on.
#[derive(Debug, Default)]
pub struct Brake {
    held: Vec<Ticket>,
}

impl Brake {
    /// Holds `ticket` if any of `readers` is behind on its output, else lets it go
    /// (the line is answered).
    pub fn answered<'a>(
        &mut self,
        ticket: Ticket,
        mut readers: impl Iterator<Item = &'a Connection>,
    ) {
        if readers.any(Connection::is_behind) {
            self.held.push(ticket);
        }
    }

    /// Lets every held ticket go once none of `readers` is behind; the loop calls it
    /// on [`Brake::timer`]. Readers behind are given what their kernels take now.
    pub fn recheck<'a>(&mut self, readers: impl Iterator<Item = &'a Connection>) {
        let mut behind = false;
        for reader in readers {
            behind |= reader.catch_up();
        }
        if !behind {
            self.held.clear();
        }
    }

    /// Fires [`BRAKE_RECHECK`] from now while tickets are held; never otherwise.
    pub fn timer(&self) -> Receiver<std::time::Instant> {
        if self.held.is_empty() {
            crossbeam_channel::never()
        } else {
            crossbeam_channel::after(BRAKE_RECHECK)
        }
    }

    /// How many tickets are held.
    pub fn holding(&self) -> usize {
        self.held.len()
    }
}

/// The deepest an inbox of one kind has been: exposed to `stats` and the tests, so
/// that "never past its bound" is something one can look at.
#[derive(Debug)]
pub struct Depth {
    /// The bound of every inbox of this kind.
    bound: usize,
    /// The most events one of them has held at once.
    deepest: AtomicUsize,
}

impl Depth {
    /// A fresh record for inboxes bounded at `bound`.
    pub fn new(bound: usize) -> Arc<Depth> {
        Arc::new(Depth {
            bound,
            deepest: AtomicUsize::new(0),
        })
    }

    /// The bound of these inboxes.
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// The most events one of them has held at once since the server started.
    pub fn deepest(&self) -> usize {
        self.deepest.load(Ordering::Relaxed)
    }

    fn saw(&self, len: usize) {
        self.deepest.fetch_max(len, Ordering::Relaxed);
    }
}

/// The sending side of a game's (or the room's) inbox: a bounded channel, with the
/// depth it reaches recorded, and the server's shutdown signal, which ends a wait for
/// room in it. Cloning it is cheap.
pub struct Inbox<E> {
    sender: Sender<E>,
    depth: Arc<Depth>,
    shutdown: Receiver<()>,
}

impl<E> Clone for Inbox<E> {
    fn clone(&self) -> Self {
        Inbox {
            sender: self.sender.clone(),
            depth: Arc::clone(&self.depth),
            shutdown: self.shutdown.clone(),
        }
    }
}

impl<E> fmt::Debug for Inbox<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Inbox({} of {})", self.sender.len(), self.depth.bound)
    }
}

/// An inbox bounded as `depth` says, whose waits end when `shutdown` starts, and the
/// receiving side its loop `select!`s on.
pub fn inbox<E>(depth: &Arc<Depth>, shutdown: &Shutdown) -> (Inbox<E>, Receiver<E>) {
    let (sender, receiver) = bounded(depth.bound);
    let inbox = Inbox {
        sender,
        depth: Arc::clone(depth),
        shutdown: shutdown.signal(),
    };
    (inbox, receiver)
}

/// Why an event could not be put in an inbox; the event comes back.
pub enum Refused<E> {
    /// The loop has ended (or the server is shutting down, which ends it).
    Gone(E),
    /// The inbox is full: for [`Inbox::post`], a bound that should never be reached
    /// was (logged); for a wait, no room came within it: the loop is stuck (logged).
    Full(E),
}

impl<E> Refused<E> {
    /// The event that was not put in.
    pub fn into_inner(self) -> E {
        match self {
            Refused::Gone(event) | Refused::Full(event) => event,
        }
    }
}

impl<E> Inbox<E> {
    /// Puts `event` in, waiting while the inbox is full: for connection threads only,
    /// whose wait is the brake on a client that sends faster than its game answers.
    /// The wait is bounded like the wait for an answer ([`ANSWER_WAIT`]: a loop that
    /// takes no event for that long is stuck), and ends at once when the server shuts
    /// down.
    ///
    /// # Errors
    ///
    /// [`Refused`], with the event: `Gone` when the loop has ended or the server is
    /// shutting down, `Full` when the wait gave up (logged).
    pub fn hand_over(&self, event: E) -> Result<(), Refused<E>> {
        self.hand_over_within(event, ANSWER_WAIT)
    }

    /// [`Inbox::hand_over`], waiting at most `wait`.
    ///
    /// # Errors
    ///
    /// As [`Inbox::hand_over`].
    pub fn hand_over_within(&self, event: E, wait: Duration) -> Result<(), Refused<E>> {
        // Room now: no wait, no select.
        let event = match self.sender.try_send(event) {
            Ok(()) => {
                self.depth.saw(self.sender.len());
                return Ok(());
            }
            Err(TrySendError::Disconnected(event)) => return Err(Refused::Gone(event)),
            Err(TrySendError::Full(event)) => event,
        };
        let mut select = crossbeam_channel::Select::new();
        let room = select.send(&self.sender);
        let shutdown = select.recv(&self.shutdown);
        let Ok(ready) = select.select_timeout(wait) else {
            log::warn!(
                "an inbox of {} events took nothing for {} s: its loop is stuck",
                self.depth.bound,
                wait.as_secs_f64()
            );
            return Err(Refused::Full(event));
        };
        if ready.index() == shutdown {
            let _ = ready.recv(&self.shutdown);
            return Err(Refused::Gone(event));
        }
        debug_assert_eq!(ready.index(), room);
        ready
            .send(&self.sender, event)
            .map_err(|e| Refused::Gone(e.into_inner()))?;
        self.depth.saw(self.sender.len());
        Ok(())
    }

    /// Puts `event` in without waiting: for a thread that must never block (a
    /// registry under its lock, a game loop). A full inbox breaks a bound the server
    /// counts on; it is logged as the bug it is.
    ///
    /// # Errors
    ///
    /// [`Refused`], with the event.
    pub fn post(&self, event: E) -> Result<(), Refused<E>> {
        match self.sender.try_send(event) {
            Ok(()) => {
                self.depth.saw(self.sender.len());
                Ok(())
            }
            Err(TrySendError::Disconnected(event)) => Err(Refused::Gone(event)),
            Err(TrySendError::Full(event)) => {
                log::error!(
                    "an inbox of {} events is full: an event was refused",
                    self.depth.bound
                );
                Err(Refused::Full(event))
            }
        }
    }

    /// Puts `event` in, waiting at most `wait` while the inbox is full: for the
    /// console, which may wait a little but never hang.
    ///
    /// # Errors
    ///
    /// [`Refused`], with the event: `Full` after `wait`.
    pub fn post_within(&self, event: E, wait: Duration) -> Result<(), Refused<E>> {
        match self.sender.send_timeout(event, wait) {
            Ok(()) => {
                self.depth.saw(self.sender.len());
                Ok(())
            }
            Err(SendTimeoutError::Disconnected(event)) => Err(Refused::Gone(event)),
            Err(SendTimeoutError::Timeout(event)) => Err(Refused::Full(event)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::Instant;

    #[test]
    fn a_ticket_is_answered_when_its_event_is_handled_or_thrown_away() {
        let depth = Depth::new(4);
        let shutdown = Shutdown::new();
        let (inbox, events) = inbox::<(u32, Ticket)>(&depth, &shutdown);
        let (ticket, awaited) = ticket();
        assert!(inbox.hand_over((1, ticket)).is_ok(), "room in the inbox");
        let game = thread::spawn(move || {
            let (n, _ticket) = events.recv().expect("an event");
            n
        });
        assert_eq!(game.join().ok(), Some(1));
        let started = Instant::now();
        // Answered: the game dropped the ticket with the event.
        assert!(awaited.0.recv().is_err());
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(depth.deepest(), 1);
    }

    #[test]
    fn post_never_waits_and_says_why_it_refused() {
        let depth = Depth::new(2);
        let shutdown = Shutdown::new();
        let (inbox, events) = inbox::<u32>(&depth, &shutdown);
        assert!(inbox.post(1).is_ok());
        assert!(inbox.post(2).is_ok());
        assert!(matches!(inbox.post(3), Err(Refused::Full(3))));
        assert!(matches!(
            inbox.post_within(4, Duration::from_millis(10)),
            Err(Refused::Full(4))
        ));
        assert_eq!(depth.deepest(), 2);
        drop(events);
        assert!(matches!(inbox.post(5), Err(Refused::Gone(5))));
        assert!(matches!(inbox.hand_over(6), Err(Refused::Gone(6))));
    }

    #[test]
    fn hand_over_waits_for_room_the_brake_on_a_fast_sender() {
        let depth = Depth::new(1);
        // Kept: a shutdown dropped is a shutdown triggered.
        let shutdown = Shutdown::new();
        let (inbox, events) = inbox::<u32>(&depth, &shutdown);
        assert!(inbox.hand_over(1).is_ok(), "room");
        let sender = thread::spawn(move || inbox.hand_over(2));
        thread::sleep(Duration::from_millis(50));
        // The second event waits in its sender, not in the inbox.
        assert_eq!(events.len(), 1);
        assert_eq!(events.recv().ok(), Some(1));
        assert_eq!(events.recv().ok(), Some(2));
        assert!(matches!(sender.join(), Ok(Ok(()))));
        assert_eq!(depth.deepest(), 1);
    }

    #[test]
    fn a_stuck_loop_holds_a_sender_no_longer_than_its_bound_nor_past_the_shutdown() {
        let depth = Depth::new(1);
        let shutdown = Shutdown::new();
        let (inbox, _events) = inbox::<u32>(&depth, &shutdown);
        assert!(inbox.hand_over(1).is_ok());
        // Nobody takes the first event: the inbox stays full.
        let began = Instant::now();
        assert!(matches!(
            inbox.hand_over_within(2, Duration::from_millis(100)),
            Err(Refused::Full(2))
        ));
        assert!(began.elapsed() >= Duration::from_millis(100));
        // A sender waiting the whole bound is woken by the shutdown.
        let waiting = {
            let inbox = inbox.clone();
            thread::spawn(move || inbox.hand_over(3))
        };
        thread::sleep(Duration::from_millis(50));
        let triggered = Instant::now();
        shutdown.trigger();
        assert!(matches!(waiting.join(), Ok(Err(Refused::Gone(3)))));
        assert!(triggered.elapsed() < ANSWER_WAIT / 2);
    }
}
