//! The Bkgo 0.6 wire protocol: one line in, one typed message out; one typed message
//! in, one line out. Pure: no sockets, no threads, no game rules.
//!
//! - [`client`]: [`parse`] turns a client's line, read in a given state
//!   ([`Expecting`]), into a [`ClientMessage`] or a [`ParseError`] (garbage: the
//!   client is told why and dropped).
//! - [`server`]: [`ServerMessage`] and its single formatting function (`Display`).
//! - [`refusal`]: [`Refusal`], why a well-formed message is refused without dropping
//!   its sender (`Dialog:` and `ServerRejectedNonFatal`).
//!
//! A message is `Command` or `Command: arguments`; several arguments are joined by
//! `, ` (`Place: 3, 15`). Free text the server sends never holds a line break.

pub mod client;
pub mod refusal;
pub mod server;

pub use client::{ClientMessage, Expecting, ParseError, parse};
pub use refusal::Refusal;
pub use server::{RoomStatus, ServerMessage};

use std::fmt;

/// The server's greeting, its first line to every client.
pub const GREETING: &str = "BKGO-Server-version-0.6";

/// How a client's version line starts; any version follows.
pub const CLIENT_VERSION_PREFIX: &str = "BKGO-Client-version-";

/// The line that ends an SGF stream (after `Board:` from the server, after
/// `SendingBoard` from a client).
pub const END_OF_SGF: &str = "EOF";

/// The first bytes of a serialized Java object (`ObjectOutputStream`'s stream magic).
pub const JAVA_STREAM_MAGIC: [u8; 2] = [0xAC, 0xED];

/// A room member's number, handed out in `ID:` and sent back in `Quitting:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Whether `bytes` start like a serialized Java object.
pub fn is_java_object(bytes: &[u8]) -> bool {
    bytes.starts_with(&JAVA_STREAM_MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_objects_are_known_by_their_first_two_bytes() {
        assert!(is_java_object(&[0xAC, 0xED, 0x00, 0x05, b's', b'r']));
        assert!(is_java_object(&[0xAC, 0xED]));
        assert!(!is_java_object(&[0xAC]));
        assert!(!is_java_object(b"Player: Ann"));
        assert!(!is_java_object(&[0xFF, 0xFE]));
    }
}
