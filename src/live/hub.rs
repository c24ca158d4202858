//! The latest snapshot of every game, kept for the web board, and the viewers waiting
//! for the next change.
//!
//! A game loop publishes after a change: under one lock, the snapshot is stored and
//! every viewer of that game (and of the overview) gets a wake-up through a channel of
//! one slot, with `try_send`: a viewer that has not taken its last wake-up yet simply
//! has one waiting. The lock is held for a few map operations and one `try_send` per
//! web viewer connected (at most `--max-web-clients`, 256 by default), never a wait. So a loop never waits for a viewer,
//! however many there are or however slow, and a viewer woken late reads only the
//! latest snapshot: a burst of moves is coalesced for it.

use super::snapshot::{Front, GameKey, Snapshot, Status};
use crossbeam_channel::{Receiver, Sender, bounded};
use parking_lot::Mutex;
use std::cmp::Reverse;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Weak};

/// Finished games kept on the web board (WEB.md: the last 50).
pub const FINISHED_SHOWN: usize = 50;

/// Games that left the board, remembered for overview viewers that were not woken
/// since: a viewer that falls further behind than this sends the whole list again.
const GONE_REMEMBERED: usize = 256;

/// What the hub keeps under its one lock: the games on the web board, each with its
/// latest snapshot, and the viewers waiting for their next change.
#[derive(Default)]
struct HubState {
    /// The latest snapshot of every game shown, and the change that made it.
    games: HashMap<GameKey, (Arc<Snapshot>, u64)>,
    /// The finished games shown, oldest first.
    finished: VecDeque<GameKey>,
    /// Counts changes: a game's entry, a game gone.
    version: u64,
    /// Games that left the board, with the change that removed them.
    gone: VecDeque<(u64, GameKey)>,
    /// Everyone waiting for changes: of one game, or of any (`None`).
    viewers: Vec<Viewer>,
    next_viewer: u64,
}

struct Viewer {
    id: u64,
    game: Option<GameKey>,
    wake: Sender<()>,
}

/// The web board's view of every game. One per server; game loops publish into it,
/// the web reads from it.
pub struct Live {
    state: Mutex<HubState>,
    me: Weak<Live>,
}

/// What an overview viewer gets after a wake-up: the games that changed since it last
/// looked, and those that left the board.
pub struct Changes {
    /// The version it has now seen up to.
    pub version: u64,
    /// Games whose snapshot changed, in the overview's order.
    pub changed: Vec<Arc<Snapshot>>,
    /// Games no longer shown.
    pub gone: Vec<GameKey>,
}

/// A viewer's place in the queue of wake-ups; dropping it stops them.
pub struct Watch {
    live: Weak<Live>,
    id: u64,
    wake: Receiver<()>,
}

impl Watch {
    /// Fires (a message) after each change the viewer watches; several changes before
    /// it is read make one wake-up.
    pub fn changes(&self) -> &Receiver<()> {
        &self.wake
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(live) = self.live.upgrade() {
            live.state.lock().viewers.retain(|v| v.id != self.id);
        }
    }
}

impl Live {
    /// An empty hub: no game shown, no viewer.
    pub fn new() -> Arc<Live> {
        Arc::new_cyclic(|me| Live {
            state: Mutex::new(HubState::default()),
            me: me.clone(),
        })
    }

    /// Stores `snapshot` as the latest of its game and wakes its viewers, unless it
    /// shows nothing new. Never waits (see the module's doc).
    pub fn publish(&self, snapshot: Snapshot) {
        let key = snapshot.key();
        // The Bkgo room is always listed (WEB.md): it never joins the finished games
        // that make room for newer ones.
        let finished = snapshot.summary.status == Status::Finished && key.front != Front::Bkgo;
        let mut state = self.state.lock();
        if state
            .games
            .get(&key)
            .is_some_and(|(old, _)| old.same_as(&snapshot))
        {
            return;
        }
        state.version += 1;
        let version = state.version;
        state.games.insert(key, (Arc::new(snapshot), version));
        // A game is on the finished list once, in the order the games ended (a second
        // finished snapshot, such as a GO! game's after its rematch was declined, keeps
        // its place), and leaves it when it plays again (a GO! rematch).
        let listed = state.finished.contains(&key);
        if finished && !listed {
            state.finished.push_back(key);
        } else if !finished && listed {
            state.finished.retain(|k| *k != key);
        }
        while state.finished.len() > FINISHED_SHOWN {
            if let Some(old) = state.finished.pop_front() {
                forget(&mut state, old);
                // Its own viewers hear that it left (their stream ends).
                wake_game(&state, old);
            }
        }
        wake(&state, key);
    }

    /// Takes a game off the board (a Spectrangle lobby that emptied: never a game).
    pub fn remove(&self, key: GameKey) {
        let mut state = self.state.lock();
        if state.games.contains_key(&key) {
            state.finished.retain(|k| *k != key);
            forget(&mut state, key);
            wake(&state, key);
        }
    }

    /// Every game shown: live ones by start, newest first, then finished ones by end,
    /// newest first; the higher id first on a tie.
    pub fn games(&self) -> Vec<Arc<Snapshot>> {
        let state = self.state.lock();
        let mut games: Vec<Arc<Snapshot>> =
            state.games.values().map(|(s, _)| Arc::clone(s)).collect();
        drop(state);
        sort_for_overview(&mut games);
        games
    }

    /// The latest snapshot of `key`, if it is shown.
    pub fn game(&self, key: GameKey) -> Option<Arc<Snapshot>> {
        self.state
            .lock()
            .games
            .get(&key)
            .map(|(s, _)| Arc::clone(s))
    }

    /// The version of the board now, for [`Live::changes_since`].
    pub fn version(&self) -> u64 {
        self.state.lock().version
    }

    /// What changed after `version`; `None` when the viewer is too far behind to be
    /// told which games left (it starts again from the whole list).
    pub fn changes_since(&self, version: u64) -> Option<Changes> {
        let state = self.state.lock();
        let remembered_from = state.gone.front().map_or(0, |(v, _)| v.saturating_sub(1));
        if state.gone.len() == GONE_REMEMBERED && version < remembered_from {
            return None;
        }
        let mut changed: Vec<Arc<Snapshot>> = state
            .games
            .values()
            .filter(|(_, v)| *v > version)
            .map(|(s, _)| Arc::clone(s))
            .collect();
        let gone = state
            .gone
            .iter()
            .filter(|(v, _)| *v > version)
            .map(|(_, k)| *k)
            .collect();
        let now = state.version;
        drop(state);
        sort_for_overview(&mut changed);
        Some(Changes {
            version: now,
            changed,
            gone,
        })
    }

    /// Starts waking the caller after each change of `game`, or of any game (`None`).
    pub fn watch(&self, game: Option<GameKey>) -> Watch {
        // One slot: a wake-up not taken yet stands for every change since.
        let (wake, changes) = bounded(1);
        let mut state = self.state.lock();
        state.next_viewer += 1;
        let id = state.next_viewer;
        state.viewers.push(Viewer { id, game, wake });
        Watch {
            live: self.me.clone(),
            id,
            wake: changes,
        }
    }

    /// Viewers waiting for changes now (the console's `stats`).
    pub fn viewers(&self) -> usize {
        self.state.lock().viewers.len()
    }
}

/// Removes `key` from the board and remembers that it left.
fn forget(state: &mut HubState, key: GameKey) {
    state.games.remove(&key);
    state.version += 1;
    let version = state.version;
    state.gone.push_back((version, key));
    while state.gone.len() > GONE_REMEMBERED {
        state.gone.pop_front();
    }
}

/// Wakes the viewers of `key` and of the overview, never waiting.
fn wake(state: &HubState, key: GameKey) {
    for viewer in &state.viewers {
        if viewer.game.is_none_or(|game| game == key) {
            // Full: it has a wake-up waiting already. Disconnected: it is leaving.
            let _ = viewer.wake.try_send(());
        }
    }
}

/// Wakes the viewers of game `key` alone, never waiting.
fn wake_game(state: &HubState, key: GameKey) {
    for viewer in state.viewers.iter().filter(|v| v.game == Some(key)) {
        let _ = viewer.wake.try_send(());
    }
}

/// Live games by start, newest first, then finished ones by end, newest first; the
/// higher id first on a tie.
fn sort_for_overview(games: &mut [Arc<Snapshot>]) {
    games.sort_by_key(|s| {
        let finished = s.summary.status == Status::Finished;
        let when = if finished { s.ended } else { s.started };
        (
            finished,
            Reverse(when),
            Reverse(s.summary.id),
            s.summary.front,
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::snapshot::{Colours, Detail, Front, GoBoard, Summary};
    use std::time::{Duration, SystemTime};

    fn snapshot(id: u32, status: Status, moves: usize, at: u64) -> Snapshot {
        snapshot_of(Front::Go, id, status, moves, at)
    }

    fn snapshot_of(front: Front, id: u32, status: Status, moves: usize, at: u64) -> Snapshot {
        let when = Some(SystemTime::UNIX_EPOCH + Duration::from_secs(at));
        Snapshot::new(
            Summary {
                front,
                id,
                status,
                players: Vec::new(),
                size: Some(9),
                moves,
                turn: None,
                turn_since: None,
                result: None,
                watchers: None,
            },
            Detail::Go(GoBoard {
                board: None,
                to_move: None,
                last_move: None,
                captures: Colours { black: 0, white: 0 },
                komi: None,
                record: None,
            }),
            when,
            (status == Status::Finished).then_some(when).flatten(),
        )
    }

    fn ids(games: &[Arc<Snapshot>]) -> Vec<u32> {
        games.iter().map(|s| s.summary.id).collect()
    }

    #[test]
    fn the_overview_lists_live_games_newest_first_then_finished_ones() {
        let live = Live::new();
        live.publish(snapshot(1, Status::Playing, 3, 10));
        live.publish(snapshot(2, Status::Finished, 9, 30));
        live.publish(snapshot(3, Status::Waiting, 0, 20));
        live.publish(snapshot(4, Status::Finished, 9, 40));
        assert_eq!(ids(&live.games()), [3, 1, 4, 2]);
    }

    #[test]
    fn a_viewer_is_woken_once_for_a_burst_and_never_slows_the_publisher() {
        let live = Live::new();
        let key = GameKey {
            front: Front::Go,
            id: 1,
        };
        let watch = live.watch(Some(key));
        let elsewhere = live.watch(Some(GameKey {
            front: Front::Go,
            id: 2,
        }));
        for moves in 0..1000 {
            live.publish(snapshot(1, Status::Playing, moves, 1));
        }
        assert_eq!(watch.changes().len(), 1, "one wake-up stands for the burst");
        assert!(elsewhere.changes().is_empty());
        assert_eq!(live.game(key).map(|s| s.summary.moves), Some(999));
        // Nothing new: no wake-up.
        let _ = watch.changes().try_recv();
        live.publish(snapshot(1, Status::Playing, 999, 1));
        assert!(watch.changes().is_empty());
        assert_eq!(live.viewers(), 2);
        drop(watch);
        assert_eq!(live.viewers(), 1);
    }

    #[test]
    fn past_fifty_finished_games_the_oldest_leave_and_viewers_hear_it() {
        let live = Live::new();
        let start = live.version();
        for id in 1..=FINISHED_SHOWN as u32 + 2 {
            live.publish(snapshot(id, Status::Finished, 1, u64::from(id)));
        }
        assert_eq!(live.games().len(), FINISHED_SHOWN);
        let changes = live.changes_since(start).expect("remembered");
        let gone: Vec<u32> = changes.gone.iter().map(|k| k.id).collect();
        assert_eq!(gone, [1, 2]);
        assert_eq!(changes.changed.len(), FINISHED_SHOWN);
        // A finished game that plays again leaves the finished list.
        live.publish(snapshot(52, Status::Playing, 0, 99));
        assert_eq!(live.games()[0].summary.id, 52);
    }

    /// WEB.md: the Bkgo room is always listed, however many games finish after it.
    #[test]
    fn the_bkgo_room_stays_on_the_board_when_fifty_games_end_after_it() {
        let live = Live::new();
        live.publish(snapshot_of(Front::Bkgo, 1, Status::Finished, 4, 1));
        for id in 1..=FINISHED_SHOWN as u32 + 5 {
            live.publish(snapshot(id, Status::Finished, 1, 10 + u64::from(id)));
        }
        let games = live.games();
        assert_eq!(games.len(), FINISHED_SHOWN + 1);
        assert!(games.iter().any(|s| s.summary.front == Front::Bkgo));
    }

    /// The finished games make room in the order they ended: a game that publishes
    /// its end twice keeps its place.
    #[test]
    fn a_second_finished_snapshot_keeps_the_game_s_place() {
        let live = Live::new();
        live.publish(snapshot(1, Status::Finished, 5, 1));
        for id in 2..=FINISHED_SHOWN as u32 {
            live.publish(snapshot(id, Status::Finished, 1, u64::from(id)));
        }
        // Game 1 publishes its end again (a declined rematch): still the oldest.
        live.publish(snapshot(1, Status::Finished, 6, 1));
        live.publish(snapshot(99, Status::Finished, 1, 99));
        assert!(
            !ids(&live.games()).contains(&1),
            "game 1 ended first, so it left first"
        );
    }
}
