//! What every connection of the server shares, whatever its front end: a unique id
//! and the one flusher thread that retries output slow clients have not taken yet.

use super::flusher::Flusher;
use super::{ConnId, Connection, OutboxLimits};
use crossbeam_channel::Receiver;
use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Opens connections: ids unique for the life of the server, one shared flusher.
pub struct Connections {
    flusher: Arc<Flusher>,
    next_id: AtomicU64,
    limits: OutboxLimits,
}

impl Connections {
    /// Connections whose output queues have these bounds.
    pub fn new(limits: OutboxLimits) -> Connections {
        Connections {
            flusher: Arc::new(Flusher::default()),
            next_id: AtomicU64::new(1),
            limits,
        }
    }

    /// Wraps an accepted stream as a connection with a fresh id.
    ///
    /// # Errors
    ///
    /// When the socket cannot be set up (the peer is already gone).
    pub fn open(&self, stream: TcpStream, peer: SocketAddr) -> io::Result<Arc<Connection>> {
        let id = ConnId(self.next_id.fetch_add(1, Ordering::Relaxed));
        Connection::new(id, stream, peer, self.limits, Arc::clone(&self.flusher))
    }

    /// Runs the flusher on the calling thread until `stop` fires.
    pub fn run_flusher(&self, stop: &Receiver<()>) {
        self.flusher.run(stop);
    }

    /// Sends queued output until all is taken or `until` passes (at shutdown, once
    /// the flusher has stopped).
    pub fn drain(&self, until: Instant) {
        self.flusher.drain(until);
    }

    /// Unit tests only: a client socket on loopback (its reads time out after 20 s)
    /// and the server's connection to it, opened as [`Connections::open`] does.
    #[cfg(test)]
    pub fn loopback(&self) -> (TcpStream, Arc<Connection>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let client = TcpStream::connect(listener.local_addr().expect("addr")).expect("connect");
        client
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .expect("timeout");
        let (socket, peer) = listener.accept().expect("accept");
        (client, self.open(socket, peer).expect("connection"))
    }
}
