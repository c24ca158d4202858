//! The room's loop: one thread (`bkgo-room`) around a `select!` over the room's inbox,
//! the shutdown signal, the brake's timer, a pending end's result and the practice
//! bot's clock and answers. One event at a time is handed to the step that answers it
//! (`arrivals`, `departures`, `play`, `bot`, `view`); after each, the bot is tended and
//! the room published. A panic in a step restarts the room empty, not the server.
//!
//! The loop owns the room (`Room`, in `mod.rs`) with no lock around it. It does not
//! send lines itself: `broadcast` does, for every step.

use super::ending::RESULT_WAIT;
use super::{Room, RoomParts};
use crate::frontend::bkgo::event::RoomEvent;
use crate::frontend::bkgo::protocol::{ClientMessage, ServerMessage};
use crate::net::{CloseReason, ConnId, Incoming};
use crossbeam_channel::{Receiver, select};
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Starts the room loop on its own thread, named `bkgo-room`.
///
/// # Errors
///
/// When the thread cannot be created.
pub fn spawn(parts: RoomParts, events: Receiver<RoomEvent>) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name("bkgo-room".into())
        .spawn(move || run(parts, &events))
}

/// Runs the room until the shutdown. A panic inside (a bug: none is reachable from
/// the network) closes that room's members and starts an empty room on the same
/// inbox: the server goes on.
fn run(parts: RoomParts, events: &Receiver<RoomEvent>) {
    let shutdown = parts.shutdown.signal();
    let mut room = Room::new(parts);
    loop {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| room.serve(events, &shutdown)));
        if outcome.is_ok() {
            return;
        }
        log::error!("bkgo room: internal error, the room starts again empty");
        for conn in room.members.iter().filter_map(|m| m.conn.client()) {
            let _ = conn.send(&ServerMessage::Dialog(
                "Internal server error: the room was closed, join again".into(),
            ));
            let _ = conn.send(&ServerMessage::RejectedFatal);
            conn.close(CloseReason::Because("internal error in the room".into()));
        }
        // The practice bot's thread ends with the old room.
        room = room.fresh();
    }
}

impl Room {
    /// The loop: one event, bot answer or timer at a time, until the shutdown.
    pub(super) fn serve(&mut self, events: &Receiver<RoomEvent>, shutdown: &Receiver<()>) {
        self.publish();
        loop {
            let bot_due = self
                .bot_due
                .map_or_else(crossbeam_channel::never, crossbeam_channel::at);
            let bot_answers = self.bot_answers();
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // The front end is gone: nobody can reach the room any more.
                    Err(_) => return,
                },
                recv(shutdown) -> _ => {
                    self.shut_down();
                    return;
                }
                recv(self.brake.timer()) -> _ => {
                    let clients = self.members.iter().filter_map(|m| m.conn.client());
                    self.brake.recheck(clients.map(AsRef::as_ref));
                }
                recv(self.result_synced()) -> _ => self.tell_pending_end(),
                recv(self.result_deadline()) -> _ => {
                    log::error!(
                        "bkgo room: game {}: its result was not on disk within {} s; the room is told the end anyway",
                        self.number,
                        RESULT_WAIT.as_secs()
                    );
                    self.tell_pending_end();
                }
                recv(bot_due) -> _ => self.on_bot_due(),
                recv(bot_answers) -> answer => match answer {
                    Ok(answer) => self.on_bot_answer(answer),
                    Err(_) => self.on_bot_stopped(),
                },
            }
            self.tend_bot();
            self.publish();
        }
    }

    /// Hands one event to the step that answers it, unless it must wait for a game's
    /// end still waiting for its result (see `ending`).
    pub(super) fn handle(&mut self, event: RoomEvent) {
        let Some(event) = self.unless_deferred(event) else {
            return;
        };
        match event {
            // Each line's ticket goes to the brake once its line is answered: the
            // sender's thread reads its next line then, or once every member has
            // caught up with what the room has sent.
            RoomEvent::Join { conn, name, ticket } => {
                self.join(conn, &name);
                self.answered(ticket);
            }
            RoomEvent::Line {
                from,
                line,
                message,
                ticket,
            } => {
                self.answering = Some(line);
                match message {
                    Ok(message) => self.message(from, message),
                    Err(error) => self.garbage(from, &error),
                }
                self.answering = None;
                self.answered(ticket);
            }
            RoomEvent::Board { from, game, ticket } => {
                self.answering = Some(Incoming::Line("SendingBoard".into()));
                self.load(from, game);
                self.answering = None;
                self.answered(ticket);
            }
            RoomEvent::Left { from, how } => self.depart(from, &how),
            RoomEvent::Kick(conn) => self.kick(&conn),
            RoomEvent::KickSeated(reply) => {
                let _ = reply.send(self.kick_seated());
            }
            RoomEvent::SeatBot(level, reply) => {
                let _ = reply.send(self.seat_bot(level, "seated by the operator"));
            }
            RoomEvent::Status(reply) => {
                let _ = reply.send(self.status());
            }
            RoomEvent::Inspect(reply) => {
                let _ = reply.send(self.view());
            }
        }
    }

    /// A message from member `from` (parsed in the room's state).
    pub(super) fn message(&mut self, from: ConnId, message: ClientMessage) {
        let Some(member) = self.members.by_conn(from) else {
            // Sent before it was removed (garbage, kick): nobody to answer.
            return;
        };
        let Some(conn) = member.conn.client().map(Arc::clone) else {
            return;
        };
        let (id, name) = (member.id, member.name.clone());
        match message {
            ClientMessage::Place { x, y } => self.place(&conn, id, x, y),
            ClientMessage::Pass => self.pass(&conn, id),
            ClientMessage::Message(text) => {
                conn.accepted();
                self.broadcast(&[ServerMessage::Message { from: name, text }]);
            }
            ClientMessage::NewBoard => self.new_board(&conn, id),
            ClientMessage::SetName(text) => self.set_name(&conn, id, text),
            ClientMessage::Quitting(given) => self.quit(&conn, id, given),
            // Never sent here: the connection thread reads an SGF stream itself and
            // sends it as a Board event; the others are parsed before joining.
            ClientMessage::SendingBoard
            | ClientMessage::Version(_)
            | ClientMessage::Join
            | ClientMessage::Status
            | ClientMessage::Shutdown
            | ClientMessage::Password(_)
            | ClientMessage::Player(_) => {}
        }
    }

    /// The server shuts down: an end still waiting for the disk is told (its result is
    /// written on), a game in progress is recorded, then every member is told (the
    /// front end closes the connections).
    pub(super) fn shut_down(&mut self) {
        self.tell_pending_end_at_shutdown();
        let in_progress =
            !self.game.is_over() && (!self.game.moves().is_empty() || self.game.setup().is_some());
        if in_progress {
            self.record("Void");
        }
        self.broadcast(&[
            ServerMessage::Dialog("The server is shutting down: the room is closed".into()),
            ServerMessage::RejectedFatal,
        ]);
        log::info!("bkgo room: closed");
    }
}
