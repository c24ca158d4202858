//! A chat room on one port, built on goserver's net layer alone: the whole design of
//! the server, small. Read it before `docs/tour.md`, which starts here.
//!
//! ```text
//! cargo run --release --example chat            # then, in two terminals:
//! nc localhost 7000                             # your first line is your name
//! ```
//!
//! - One OS thread per client (`accept_loop` hands each connection to a thread of its
//!   own), reading its lines with the same bounded reader as goserver's players
//!   (`read_lines`: line length, read timeouts, pacing of a client stuck in errors).
//! - One room loop, the only owner of the room's state: no lock around it. Clients
//!   talk to it through a bounded inbox (`hand_over`), one line in flight each, in
//!   order: a flooding client waits, and TCP slows it down; nothing queues without a
//!   bound. The room answers a line by dropping its `Ticket`.
//! - The room writes without ever blocking (`send_line` into each client's bounded
//!   outbox; the flusher thread retries what a slow reader has not taken, and drops a
//!   client that stops reading): one slow client cannot stall the room.
//!
//! goserver adds a game loop per game instead of one room, a registry that pairs
//! players, protocols, and the rest; the threads, the inbox and the outbox are these.

use goserver::net::{
    self, AcceptLimits, Connection, Connections, Depth, Handled, Inbox, Incoming, Lines,
    OutboxLimits, Ticket,
};
use goserver::shutdown::Shutdown;
use goserver::workers::Workers;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Duration;

/// The room's inbox holds one line per member at most (one line in flight each).
const MEMBERS: usize = 64;

/// What the room loop hears from the connection threads: a member's name, a line it
/// said (each with the ticket the room drops once the line is answered), its leaving.
enum Event {
    Joined(Arc<Connection>, String, Ticket),
    Said(Arc<Connection>, String, Ticket),
    Left(Arc<Connection>),
}

fn main() -> std::io::Result<()> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "7000".into());
    let listener = TcpListener::bind(format!("0.0.0.0:{port}"))?;
    eprintln!("listening on {} (chat)", listener.local_addr()?);
    let shutdown = Shutdown::new();
    let (room, events) = net::inbox(&Depth::new(MEMBERS), &shutdown);
    std::thread::spawn(move || run_room(&events));
    let connections = Arc::new(Connections::new(OutboxLimits::default()));
    let flusher = Arc::clone(&connections);
    let stop = shutdown.signal();
    std::thread::spawn(move || flusher.run_flusher(&stop));
    let limits = AcceptLimits {
        max_clients: MEMBERS,
        refusal: "* the room is full".into(),
    };
    let workers = Workers::new("conn", net::listener::CONNECTION_STACK_BYTES, MEMBERS);
    let (stopping, open) = (AtomicBool::new(false), Arc::new(AtomicUsize::new(0)));
    let serve = move |stream, peer| serve(stream, peer, &connections, &room);
    net::accept_loop(&listener, &limits, &stopping, open, &workers, serve);
    Ok(())
}

/// One client's thread: its lines go to the room until it leaves.
fn serve(stream: TcpStream, peer: SocketAddr, connections: &Connections, room: &Inbox<Event>) {
    let Ok(conn) = connections.open(stream, peer) else {
        return;
    };
    let _ = conn.send_line("* welcome: what is your name?", false);
    let mut member = Member { room, named: false };
    net::read_lines(&conn, net::LineLimits::default(), &mut member);
    if member.named {
        let _ = room.hand_over(Event::Left(conn));
    }
}

/// The room's side of one client's read loop.
struct Member<'a> {
    room: &'a Inbox<Event>,
    named: bool,
}

impl Lines for Member<'_> {
    /// No clock: a member may stay silent as long as it likes.
    fn next_wait(&mut self, _conn: &Arc<Connection>) -> Result<Duration, String> {
        Ok(net::IDLE_READ_BOUND)
    }

    fn line(&mut self, conn: &Arc<Connection>, line: Incoming) -> Handled {
        let Incoming::Line(text) = line else {
            let _ = conn.send_line("* that line was too long, or not text", true);
            return ControlFlow::Continue(None);
        };
        let conn = Arc::clone(conn);
        // The room drops the ticket once it has answered the line.
        let (ticket, awaited) = net::ticket();
        let event = if self.named {
            Event::Said(conn, text, ticket)
        } else {
            self.named = true;
            Event::Joined(conn, text, ticket)
        };
        match self.room.hand_over(event) {
            Ok(()) => ControlFlow::Continue(Some(awaited)),
            Err(_) => ControlFlow::Break("the room has closed".into()),
        }
    }
}

/// The room: its members and their names, owned by this loop alone.
fn run_room(events: &crossbeam_channel::Receiver<Event>) {
    let mut members: Vec<(Arc<Connection>, String)> = Vec::new();
    for event in events {
        let said = match event {
            // A ticket is dropped at the end of its arm: the line is answered, and its
            // sender's next line is handed over.
            Event::Joined(conn, name, _answered) => {
                let said = format!("* {name} joined");
                members.push((conn, name));
                said
            }
            Event::Said(conn, text, _answered) => {
                let name = members
                    .iter()
                    .find(|(c, _)| c.id == conn.id)
                    .map(|(_, n)| n);
                format!("{}: {text}", name.map_or("?", String::as_str))
            }
            Event::Left(conn) => {
                let Some(at) = members.iter().position(|(c, _)| c.id == conn.id) else {
                    continue;
                };
                format!("* {} left", members.remove(at).1)
            }
        };
        for (conn, _) in &members {
            // Never blocks: a slow reader's lines wait in its outbox, within bounds.
            let _ = conn.send_line(&said, false);
        }
    }
}
