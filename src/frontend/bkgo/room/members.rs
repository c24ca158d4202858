//! Who is in the room: members in join order with their IDs and granted names, and
//! the two seats. Pure bookkeeping, no I/O: `C` is how the room reaches a member (its
//! connection, or the practice bot's thread; nothing in the tests).
//!
//! The seat rules: a joiner takes a free seat (black first), else watches; a seat
//! freed by a departure goes to the longest-waiting watcher (the earliest joiner who
//! is not seated), or stays empty when nobody watches.

use super::super::protocol::PlayerId;
use super::super::summary::{MemberRow, Role};
use crate::engine::go::Colour;
use crate::frontend::names;
use crate::net::ConnId;
use std::collections::HashSet;

/// One member of the room.
#[derive(Clone, Debug)]
pub struct Member<C> {
    /// Its ID in the room (`ID:`).
    pub id: PlayerId,
    /// Its connection's id; none for the practice bot, which has no connection (so
    /// no event from a connection is ever taken for the bot's).
    pub conn_id: Option<ConnId>,
    /// The name granted when it joined.
    pub name: String,
    /// How to reach it.
    pub conn: C,
}

/// A seat that changed hands, or became empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    /// Which seat.
    pub colour: Colour,
    /// Who sits there now.
    pub holder: Option<String>,
}

/// The members, in join order, and the seats.
#[derive(Debug)]
pub struct Members<C> {
    list: Vec<Member<C>>,
    /// The members' names, to grant a new one without a scan of `list` per try.
    names: HashSet<String>,
    /// The black seat's holder, then the white one's.
    seats: [Option<PlayerId>; 2],
    next_id: u64,
}

impl<C> Default for Members<C> {
    fn default() -> Self {
        Members {
            list: Vec::new(),
            names: HashSet::new(),
            seats: [None, None],
            next_id: 1,
        }
    }
}

/// The index of `colour`'s seat.
fn seat_index(colour: Colour) -> usize {
    match colour {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

const COLOURS: [Colour; 2] = [Colour::Black, Colour::White];

impl<C> Members<C> {
    /// An empty room; IDs start at 1.
    pub fn new() -> Members<C> {
        Members::default()
    }

    /// Adds a member who asked for `wanted` (granted as is, or with `_2`, `_3`, ... if
    /// a member has it) with the next ID; it takes a free seat, black first. Returns
    /// the member and the seat it took.
    pub fn join(
        &mut self,
        conn_id: Option<ConnId>,
        wanted: &str,
        conn: C,
    ) -> (&Member<C>, Option<Colour>) {
        let name = names::grant(wanted, |name| self.names.contains(name));
        self.names.insert(name.clone());
        let id = PlayerId(self.next_id);
        self.next_id += 1;
        let seat = COLOURS
            .into_iter()
            .find(|&c| self.seats[seat_index(c)].is_none());
        if let Some(colour) = seat {
            self.seats[seat_index(colour)] = Some(id);
        }
        self.list.push(Member {
            id,
            conn_id,
            name,
            conn,
        });
        let index = self.list.len() - 1;
        (&self.list[index], seat)
    }

    /// Removes member `id` (by its ID: the practice bot has no connection to name it
    /// by). Returns it, and the change of its seat if it held one: to the
    /// longest-waiting watcher, or empty.
    pub fn leave(&mut self, id: PlayerId) -> Option<(Member<C>, Option<SeatChange>)> {
        let index = self.list.iter().position(|m| m.id == id)?;
        let member = self.list.remove(index);
        self.names.remove(&member.name);
        let Some(colour) = self.seat_of(member.id) else {
            return Some((member, None));
        };
        let heir = self
            .list
            .iter()
            .find(|m| self.seat_of(m.id).is_none())
            .map(|m| (m.id, m.name.clone()));
        self.seats[seat_index(colour)] = heir.as_ref().map(|(id, _)| *id);
        let change = SeatChange {
            colour,
            holder: heir.map(|(_, name)| name),
        };
        Some((member, Some(change)))
    }

    /// The member on connection `conn_id`.
    pub fn by_conn(&self, conn_id: ConnId) -> Option<&Member<C>> {
        self.list.iter().find(|m| m.conn_id == Some(conn_id))
    }

    /// The seat member `id` holds, if any.
    pub fn seat_of(&self, id: PlayerId) -> Option<Colour> {
        COLOURS
            .into_iter()
            .find(|&c| self.seats[seat_index(c)] == Some(id))
    }

    /// The member in seat `colour`.
    pub fn holder(&self, colour: Colour) -> Option<&Member<C>> {
        let id = self.seats[seat_index(colour)]?;
        self.list.iter().find(|m| m.id == id)
    }

    /// The seats taken, black first.
    pub fn seated(&self) -> impl Iterator<Item = (Colour, &Member<C>)> {
        COLOURS
            .into_iter()
            .filter_map(|colour| Some((colour, self.holder(colour)?)))
    }

    /// The name of the member in seat `colour`.
    pub fn holder_name(&self, colour: Colour) -> Option<String> {
        self.holder(colour).map(|m| m.name.clone())
    }

    /// Every member, in join order.
    pub fn iter(&self) -> impl Iterator<Item = &Member<C>> {
        self.list.iter()
    }

    /// How many members there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Every member as the console lists it, in join order.
    pub fn rows(&self) -> Vec<MemberRow> {
        self.list
            .iter()
            .map(|m| MemberRow {
                conn: m.conn_id,
                name: m.name.clone(),
                role: self.seat_of(m.id).map_or(Role::Watching, Role::seated),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The room as text: `Ann(1):black Bob(2):white Cat(3):watching`.
    fn room(members: &Members<()>) -> String {
        members
            .rows()
            .iter()
            .zip(members.iter())
            .map(|(row, m)| format!("{}({}):{}", row.name, m.id, row.role))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn join(members: &mut Members<()>, conn: u64, name: &str) -> Option<Colour> {
        members.join(Some(ConnId(conn)), name, ()).1
    }

    #[test]
    fn joiners_take_free_seats_black_first_then_watch() {
        let mut members = Members::new();
        assert_eq!(join(&mut members, 10, "Ann"), Some(Colour::Black));
        assert_eq!(join(&mut members, 11, "Bob"), Some(Colour::White));
        assert_eq!(join(&mut members, 12, "Ann"), None);
        assert_eq!(join(&mut members, 13, "Ann"), None);
        assert_eq!(
            room(&members),
            "Ann(1):black Bob(2):white Ann_2(3):watching Ann_3(4):watching"
        );
        assert_eq!(members.holder_name(Colour::White).as_deref(), Some("Bob"));
        assert_eq!(members.by_conn(ConnId(12)).map(|m| m.id), Some(PlayerId(3)));
        assert_eq!(members.len(), 4);
    }

    #[test]
    fn a_freed_seat_goes_to_the_longest_waiting_watcher() {
        let mut members = Members::new();
        for (conn, name) in [(1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan")] {
            join(&mut members, conn, name);
        }
        // A watcher leaves: no seat changes.
        let (gone, change) = members.leave(PlayerId(3)).expect("Cat is a member");
        assert_eq!((gone.name.as_str(), change), ("Cat", None));
        // Black leaves: Dan, the only watcher, sits.
        let (_, change) = members.leave(PlayerId(1)).expect("Ann is a member");
        assert_eq!(
            change,
            Some(SeatChange {
                colour: Colour::Black,
                holder: Some("Dan".into())
            })
        );
        assert_eq!(room(&members), "Bob(2):white Dan(4):black");
        // White leaves and nobody watches: the seat stays empty until someone joins.
        let (_, change) = members.leave(PlayerId(2)).expect("Bob is a member");
        assert_eq!(
            change,
            Some(SeatChange {
                colour: Colour::White,
                holder: None
            })
        );
        assert_eq!(join(&mut members, 5, "Bob"), Some(Colour::White));
        assert_eq!(room(&members), "Dan(4):black Bob(5):white");
        assert!(members.leave(PlayerId(99)).is_none());
    }

    #[test]
    fn a_member_without_a_connection_sits_and_leaves_by_its_id() {
        let mut members = Members::new();
        join(&mut members, 1, "Ann");
        let (bot, seat) = members.join(None, "GoBot-L3", ());
        assert_eq!((bot.id, seat), (PlayerId(2), Some(Colour::White)));
        join(&mut members, 3, "Cat");
        // No connection's event reaches it.
        assert!(members.by_conn(ConnId(0)).is_none());
        assert_eq!(
            members.rows().iter().map(|r| r.conn).collect::<Vec<_>>(),
            [Some(ConnId(1)), None, Some(ConnId(3))]
        );
        let seated: Vec<(Colour, &str)> = members
            .seated()
            .map(|(colour, m)| (colour, m.name.as_str()))
            .collect();
        assert_eq!(
            seated,
            [(Colour::Black, "Ann"), (Colour::White, "GoBot-L3")]
        );
        // It leaves like anyone, by its ID: its seat goes to the longest-waiting
        // watcher.
        let (gone, change) = members.leave(PlayerId(2)).expect("the bot is a member");
        assert_eq!(gone.name, "GoBot-L3");
        assert_eq!(
            change,
            Some(SeatChange {
                colour: Colour::White,
                holder: Some("Cat".into())
            })
        );
        assert!(members.leave(PlayerId(2)).is_none());
    }

    #[test]
    fn the_earliest_watcher_inherits_even_after_later_joins() {
        let mut members = Members::new();
        for (conn, name) in [(1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan"), (5, "Eve")] {
            join(&mut members, conn, name);
        }
        members.leave(PlayerId(2));
        members.leave(PlayerId(1));
        assert_eq!(room(&members), "Cat(3):white Dan(4):black Eve(5):watching");
    }
}
