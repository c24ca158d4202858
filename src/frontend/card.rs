//! The front ends' side of report cards (`crate::cards`): a client takes a name, has a
//! line refused, leaves. Each front end says which kind of mistake each refusal is;
//! these functions put it on the right card, and never wait (a card's counts are
//! atomics; the card registry's lock is taken only when a client names itself).

use crate::cards::{Card, Cards, Mistake, Offending, Run};
use crate::front::Front;
use crate::net::{Connection, Incoming, Message};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// The name of the card of a client that never named itself, from `peer`'s address.
pub fn unnamed(ip: std::net::IpAddr) -> String {
    format!("(unnamed) {ip}")
}

/// What a line read from a client is, as a card's example shows it (`max_bytes`: the
/// line bound, for a line longer than it).
pub fn offending(line: &Incoming, max_bytes: usize) -> Offending<'_> {
    match line {
        Incoming::Line(text) => Offending::Line(text),
        Incoming::TooLong => Offending::TooLong(max_bytes),
        Incoming::NotUtf8 => Offending::NotText,
    }
}

/// The client on `conn` took `name` in `front`: its card counts the connection, and
/// takes over what the client did before it had a name.
pub fn named(cards: &Cards, conn: &Connection, front: Front, name: &str) -> Arc<Card> {
    let card = cards.named(front, name);
    card.connected();
    if let Some(early) = conn.set_card(Arc::clone(&card)) {
        card.absorb(&early);
    }
    card
}

/// The client on `conn` made a mistake of `kind`: `line` was refused with `answer`
/// (the line sent, or empty when nothing was).
pub fn mistake(conn: &Connection, front: Front, kind: Mistake, line: Offending<'_>, answer: &str) {
    let card = conn.card_or_early(|| Card::new(front, &unnamed(conn.peer.ip())));
    let run = match line {
        Offending::Line(text) => {
            let line_hash = fingerprint(text);
            Run {
                length: conn.refused_line(Some(line_hash)),
                line_hash,
            }
        }
        // A line too long to keep, or not text, cannot be told from the next one: no
        // run, and it ends one.
        _ => {
            conn.refused_line(None);
            Run::ONCE
        }
    };
    card.mistake(kind, line, answer, run);
}

/// Refuses a line of the client on `conn`: counts a mistake of `kind` on its card,
/// then sends `answer`. In that order, so that whoever has seen the answer (the client,
/// a test, the teaching assistant at the console) finds the card counting it already.
pub fn refuse(
    conn: &Connection,
    front: Front,
    kind: Mistake,
    line: Offending<'_>,
    answer: &impl Message,
) {
    let text = answer.to_string();
    mistake(conn, front, kind, line, &text);
    // A closed connection is its reader's to report.
    let _ = conn.send_line(&text, answer.is_rejection());
}

/// The client on `conn` is gone. If it never took a name but made mistakes, they are
/// kept on the card of its address, `(unnamed) <ip>`.
pub fn farewell(cards: &Cards, conn: &Connection) {
    let Some(early) = conn.take_early_card() else {
        return;
    };
    if early.mistakes_total() == 0 {
        return;
    }
    let card = cards.named(early.front, &early.name);
    card.connected();
    card.absorb(&early);
}

/// A hash of a refused line, to tell the same line sent again from another.
fn fingerprint(line: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    line.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Connections, OutboxLimits};

    #[test]
    fn mistakes_before_a_name_join_the_named_card_and_an_unnamed_client_keeps_its_own() {
        let connections = Connections::new(OutboxLimits::default());
        let (_peer, conn) = connections.loopback();
        let cards = Cards::default();
        let line = Offending::Line("MOVE+1+Ann+0");
        mistake(
            &conn,
            Front::Go,
            Mistake::BeforeHandshake,
            line,
            "UNKNOWN_COMMAND+x\n",
        );
        mistake(
            &conn,
            Front::Go,
            Mistake::BeforeHandshake,
            line,
            "UNKNOWN_COMMAND+x\n",
        );
        let card = named(&cards, &conn, Front::Go, "Ann");
        let view = card.view();
        assert_eq!(view.count(Mistake::BeforeHandshake), 2);
        assert_eq!(view.longest_repeat, 2);
        assert_eq!(view.connections, 1);
        farewell(&cards, &conn);
        assert_eq!(cards.len(), 1, "a named client leaves no unnamed card");

        let (_other, stranger) = connections.loopback();
        mistake(
            &stranger,
            Front::Go,
            Mistake::UnknownCommand,
            Offending::Line("HELLO"),
            "UNKNOWN_COMMAND+y",
        );
        farewell(&cards, &stranger);
        let kept = cards
            .find(Front::Go, &unnamed(stranger.peer.ip()))
            .expect("the unnamed client's card");
        assert_eq!(kept.view().count(Mistake::UnknownCommand), 1);
    }
}
