//! The front ends' side of report cards (`crate::cards`): a client takes a name, has a
//! line refused, leaves. Each front end says which kind of mistake each refusal is;
//! these functions put it on the right card, and never wait (a card's counts are
//! atomics; the card registry's lock is taken only when a client names itself).
//!
//! Which card a client's mistakes go to (its named card, or its early card before it
//! has a name) is kept here, in a `CardSlot` attached to its connection
//! (`net::Attachments`): the net layer holds it and knows nothing of cards. Reading it
//! ([`of`], on every move) takes that connection's own small lock, no lock shared
//! with other clients.

use crate::cards::{Card, Cards, Mistake, Offending, Run};
use crate::front::Front;
use crate::net::{Connection, Incoming, Message};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// Where a connection's mistakes are counted; attached to the connection.
#[derive(Default)]
struct CardSlot {
    /// The card of the name it took.
    named: Option<Arc<Card>>,
    /// Before it has a name: a card of its own, made at its first mistake, that joins
    /// the named card when it takes a name.
    early: Option<Arc<Card>>,
}

/// The card of the name the client on `conn` took, if it took one.
pub fn of(conn: &Connection) -> Option<Arc<Card>> {
    conn.with_attachments(|attached| attached.get::<CardSlot>()?.named.clone())
}

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
    // From now on its mistakes go to `card`; its early card, if any, joins it.
    let early = conn.with_attachments(|attached| {
        let slot = attached.get_or_insert_with(CardSlot::default);
        slot.named = Some(Arc::clone(&card));
        slot.early.take()
    });
    if let Some(early) = early {
        card.absorb(&early);
    }
    card
}

/// The client on `conn` made a mistake of `kind`: `line` was refused with `answer`
/// (the line sent, or empty when nothing was).
pub fn mistake(conn: &Connection, front: Front, kind: Mistake, line: Offending<'_>, answer: &str) {
    // Its named card, or else its early card, made now if it has none yet.
    let card = conn.with_attachments(|attached| {
        let slot = attached.get_or_insert_with(CardSlot::default);
        match &slot.named {
            Some(card) => Arc::clone(card),
            None => Arc::clone(
                slot.early
                    .get_or_insert_with(|| Arc::new(Card::new(front, &unnamed(conn.peer.ip())))),
            ),
        }
    });
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
    let early = conn.with_attachments(|attached| attached.get_mut::<CardSlot>()?.early.take());
    let Some(early) = early else {
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
