//! The bot's move choice: when to pass without thinking, the loop of simulations
//! within the budget, and the tree kept from one move to the next.
//!
//! Owns the decision for one position of a real [`Game`]: the root's moves are the
//! ones the game allows; each simulation walks down the [`Tree`] by its estimates,
//! adds a node where an edge has been tried often enough, plays a playout to the end
//! by the [`policy`](super::policy), and records the area score's reward along the
//! way (and, for RAVE, at every node for the moves played first later). The most
//! simulated move is played. No I/O, no threads, no clock but the deadline in the
//! [`Budget`].

use std::time::Instant;

use crate::engine::go::{Colour, Game, IllegalMove, Komi, Move, PlayedMove, Rules};
use crate::engine::rng::Rng;

use super::area::AreaCounter;
use super::budget::Budget;
use super::level::{Level, Style};
use super::patterns::Patterns;
use super::policy::next_move;
use super::position::{Loc, PASS, Position};
use super::prior::Priors;
use super::reward::reward;
use super::tree::{Edge, EdgeId, NodeId, ROOT, Tree};

/// Simulations through an edge before the position it leads to becomes a node: fewer
/// spend memory and prior computations on lines tried once or twice.
const EXPAND_AFTER: u32 = 8;

/// The most edges a bot's tree holds (28 bytes each: about 30 MB). A 9x9 search of a
/// few seconds stays far below; beyond it the tree stops growing and the search goes
/// on with playouts from its leaves.
const MAX_EDGES: usize = 1 << 20;

/// Simulations run before a search may stop early because its choice is settled:
/// enough to measure their speed against a deadline.
const SETTLE_AFTER: u32 = 100;

/// A playout ends after this many moves per point if it has not ended by two passes:
/// simple ko allows long cycles (triple ko), and the cap ends them.
const PLAYOUT_MOVES_PER_POINT: usize = 3;

/// A Go player that chooses its moves by Monte-Carlo tree search.
///
/// Deterministic for a given seed, level, sequence of questions and playout budget (a
/// deadline makes the number of simulations, so the choice, depend on the machine's
/// speed).
#[derive(Clone, Debug)]
pub struct Bot {
    /// The source of every random choice.
    rng: Rng,
    /// How strong it plays.
    level: Level,
    /// The 3x3 shapes of the playouts and the priors.
    patterns: Patterns,
    /// The search tree, kept for the next move.
    tree: Tree,
    /// The position at the tree's root: the game's rules, the moves that led there and
    /// the board, so that the next question can find its place in the tree.
    root: Option<(Rules, Vec<PlayedMove>, Position)>,
    /// What the latest search did.
    summary: Summary,
    /// Buffers reused by every simulation.
    scratch: Scratch,
}

/// Buffers of the simulations, kept to allocate nothing per simulation.
#[derive(Clone, Debug)]
struct Scratch {
    /// The position of the simulation in progress.
    pos: Option<Position>,
    /// The edges chosen in the tree.
    path: Vec<EdgeId>,
    /// The nodes those edges leave from.
    nodes: Vec<NodeId>,
    /// Every move of the simulation (the tree's, then the playout's), passes included.
    moves: Vec<Loc>,
    /// Per cell, the index in `moves` of the first move there from the node being
    /// updated on (`u32::MAX`: none).
    first: Vec<u32>,
    /// The edges of a node being made.
    edges: Vec<Edge>,
    /// The priors of new nodes.
    priors: Priors,
    /// The area count of finished simulations.
    area: AreaCounter,
}

/// What one call of [`Bot::choose`] did, for logs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Simulations run (each a walk down the tree and, unless it ended the game
    /// there, a playout).
    pub playouts: u32,
    /// Moves played in those simulations, in the tree and in the playouts, passes
    /// included.
    pub playout_moves: u64,
    /// Moves considered at the root, passing included (0 when the bot answered
    /// without searching).
    pub candidates: usize,
    /// Simulations through the root kept from the previous searches (the tree is
    /// reused when the game went on along it).
    pub reused: u32,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// The estimated reward of the chosen move for the bot, from 0 (sure loss) to 1
    /// (sure win by the whole board); `None` without a search.
    pub value: Option<f64>,
}

impl Bot {
    /// A bot of `level` whose random choices all follow from `seed`.
    pub fn new(seed: u64, level: Level) -> Bot {
        Bot {
            rng: Rng::new(seed),
            level,
            patterns: Patterns::new(),
            tree: Tree::new(MAX_EDGES),
            root: None,
            summary: Summary::default(),
            scratch: Scratch {
                pos: None,
                path: Vec::new(),
                nodes: Vec::new(),
                moves: Vec::new(),
                first: Vec::new(),
                edges: Vec::new(),
                priors: Priors::default(),
                area: AreaCounter::default(),
            },
        }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// What the latest [`choose`](Self::choose) did.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// Chooses a move for `colour` in `game` within (its level's share of) `budget`:
    /// always one that `game.check(colour, mv)` accepts.
    ///
    /// Passes without searching when the opponent has just passed and `colour` leads
    /// on the area score of the board, komi included (passing ends the game with its
    /// win), and when it has no move but passing (no legal move that does not fill
    /// its own eye). Otherwise searches, passing included: a pass that would end the
    /// game is valued by the exact score, so the bot does not pass a lost game away
    /// while a move can still win it; it passes when passing looks best.
    ///
    /// Keeps its tree for the next call: if the game has gone on along it (the same
    /// game, a few moves later), the search starts from what it knew of the new
    /// position.
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] or [`IllegalMove::NotYourTurn`]: no move is legal.
    pub fn choose(
        &mut self,
        game: &Game,
        colour: Colour,
        budget: Budget,
    ) -> Result<Move, IllegalMove> {
        let started = Instant::now();
        // Passing is legal whenever any move is, so this asks "may `colour` move at all?".
        game.check(colour, Move::Pass)?;
        self.summary = Summary::default();
        if passing_wins(game, colour) {
            return Ok(Move::Pass);
        }
        let style = self.level.style();
        let root = root_position(game);
        self.move_root(game, &root);
        if !self.tree.is_expanded(ROOT) {
            self.scratch.priors.edges(
                &root,
                &self.patterns,
                style.priors,
                game.rules().komi,
                &mut self.scratch.edges,
            );
            self.rng.shuffle(&mut self.scratch.edges);
            self.tree.expand(ROOT, &self.scratch.edges);
        }
        // The real game has the last word at the root (superko, the ko point).
        let mut candidates = 0;
        for edge in self.tree.edges_mut(ROOT) {
            edge.forbidden =
                edge.mv != PASS && game.check(colour, Move::Play(root.point(edge.mv))).is_err();
            candidates += usize::from(!edge.forbidden && edge.mv != PASS);
        }
        if candidates == 0 {
            return Ok(Move::Pass);
        }
        self.summary.candidates = candidates + 1;
        self.summary.reused = self.tree.edges(ROOT).iter().map(|e| e.visits).sum();
        let budget = budget.share(style.share, style.max_playouts, started);
        let komi = game.rules().komi;
        loop {
            let done = self.summary.playouts;
            let left = budget.playouts_left(done, started, Instant::now());
            // Against a deadline, how many simulations are left is a guess from the
            // ones run so far: none run, no guess, and a tree kept from the last move
            // would look settled at once.
            let measured = done >= SETTLE_AFTER || !budget.has_deadline();
            let settled = style.stop_when_settled && measured && self.tree.is_settled(left);
            if left == 0 || settled {
                break;
            }
            self.summary.playout_moves += self.simulate(&root, komi, style) as u64;
            self.summary.playouts += 1;
        }
        self.summary.nodes = self.tree.nodes();
        let Some(best) = self.tree.best_root_edge() else {
            return Ok(Move::Pass);
        };
        self.summary.value = Some(f64::from(self.tree.edge(best).mean));
        let chosen = self.pick(best, style);
        let mv = if chosen == PASS {
            Move::Pass
        } else {
            Move::Play(root.point(chosen))
        };
        // The search's rules are lighter than the game's: the game has the last word.
        Ok(if game.check(colour, mv).is_ok() {
            mv
        } else {
            Move::Pass
        })
    }

    /// Moves the tree's root to the game's position: keeps the subtree of that
    /// position if the game went on along the tree, else starts a new tree.
    fn move_root(&mut self, game: &Game, root: &Position) {
        let kept = self.subtree_for(game, root);
        match kept {
            Some(node) if node == ROOT => {}
            Some(node) => self.tree = self.tree.subtree(node),
            None => self.tree = Tree::new(MAX_EDGES),
        }
        self.root = Some((game.rules(), game.moves().to_vec(), root.clone()));
    }

    /// The node of the tree for the position of `game` (which is `root`), if the
    /// tree's root is an earlier position of the same game and the moves since are
    /// all in the tree.
    fn subtree_for(&self, game: &Game, root: &Position) -> Option<NodeId> {
        let (rules, moves, old) = self.root.as_ref()?;
        let now = game.moves();
        let same_game = *rules == game.rules()
            && old.size() == root.size()
            && now.get(..moves.len()) == Some(&moves[..]);
        if !same_game {
            return None;
        }
        let mut pos = old.clone();
        let mut node = ROOT;
        for played in &now[moves.len()..] {
            let loc = match played.mv {
                Move::Pass => PASS,
                Move::Play(p) => pos.loc(p),
            };
            let edge = self
                .tree
                .edge_ids(node)
                .find(|&e| self.tree.edge(e).mv == loc)?;
            node = self.tree.child(edge)?;
            if loc == PASS {
                pos.pass();
            } else if pos.is_legal(loc) {
                pos.play(loc);
            } else {
                return None;
            }
        }
        // The same moves from the same start give the same stones; a game restarted
        // from a setup would not.
        pos.same_stones(root).then_some(node)
    }

    /// One simulation from `root`: down the tree, a playout from its leaf, the
    /// result recorded. Returns the number of moves played.
    fn simulate(&mut self, root: &Position, komi: Komi, style: Style) -> usize {
        let Scratch {
            pos,
            path,
            nodes,
            moves,
            first,
            edges,
            priors,
            area,
        } = &mut self.scratch;
        let pos = match pos {
            Some(pos) => {
                pos.clone_from(root);
                pos
            }
            None => pos.insert(root.clone()),
        };
        path.clear();
        nodes.clear();
        moves.clear();
        let mut node = ROOT;
        let mut ended = false;
        while let Some(edge) = self.tree.select(node) {
            nodes.push(node);
            path.push(edge);
            let e = *self.tree.edge(edge);
            if e.mv == PASS {
                pos.pass();
            } else {
                pos.play(e.mv);
            }
            moves.push(e.mv);
            if e.terminal {
                ended = true;
                break;
            }
            if let Some(child) = self.tree.child(edge) {
                node = child;
                continue;
            }
            if e.visits + 1 < EXPAND_AFTER {
                break;
            }
            priors.edges(pos, &self.patterns, style.priors, komi, edges);
            if !self.tree.has_room(edges.len()) {
                break;
            }
            self.rng.shuffle(edges);
            node = self.tree.add_child(edge);
            self.tree.expand(node, edges);
        }
        if !ended {
            let cap = PLAYOUT_MOVES_PER_POINT * pos.size() * pos.size();
            let mut played = 0;
            while pos.passes() < 2 && played < cap {
                let mv = next_move(pos, &self.patterns, style.playouts, &mut self.rng);
                if mv == PASS {
                    pos.pass();
                } else {
                    pos.play(mv);
                }
                moves.push(mv);
                played += 1;
            }
        }
        let (black, white) = area.area(pos);
        let points = pos.size() * pos.size();
        let for_black = reward(black, white, komi, Colour::Black, points) as f32;
        let value = |colour: Colour| match colour {
            Colour::Black => for_black,
            Colour::White => 1.0 - for_black,
        };
        let root_colour = root.to_move();
        let mover_at = |depth: usize| {
            if depth.is_multiple_of(2) {
                root_colour
            } else {
                root_colour.opponent()
            }
        };
        for (depth, &edge) in path.iter().enumerate() {
            self.tree.record(edge, value(mover_at(depth)));
        }
        // RAVE: walking the moves backwards, `first` holds the first move at each
        // point from move `i` on; at a node's depth, its edges learn from them.
        first.clear();
        first.resize(root.cells_len(), u32::MAX);
        for i in (0..moves.len()).rev() {
            if moves[i] != PASS {
                first[usize::from(moves[i])] = i as u32;
            }
            if let Some(&at) = nodes.get(i) {
                let first = &*first;
                self.tree.record_rave(at, value(mover_at(i)), |mv| {
                    let j = first[usize::from(mv)];
                    j != u32::MAX && (j as usize - i).is_multiple_of(2)
                });
            }
        }
        moves.len()
    }

    /// The move to play: the most simulated one (`best`), or at a level with a
    /// temperature a move drawn by its visits (never a pass the search did not
    /// prefer).
    fn pick(&mut self, best: EdgeId, style: Style) -> Loc {
        let best_mv = self.tree.edge(best).mv;
        if style.temperature <= 0.0 || best_mv == PASS {
            return best_mv;
        }
        let weights: Vec<(Loc, f64)> = self
            .tree
            .edges(ROOT)
            .iter()
            .filter(|e| !e.forbidden && e.mv != PASS && e.visits > 0)
            .map(|e| (e.mv, f64::from(e.visits).powf(1.0 / style.temperature)))
            .collect();
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        // 53 random bits make a uniform fraction of the total.
        let mut target = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (mv, weight) in &weights {
            if target < *weight {
                return *mv;
            }
            target -= weight;
        }
        best_mv
    }
}

#[cfg(test)]
impl Bot {
    /// The root's most visited moves, for diagnosing a search: vertex, visits, mean,
    /// and the tree's size.
    pub(super) fn root_report(&self, size: usize, top: usize) -> String {
        let Some((_, _, pos)) = &self.root else {
            return "no search".into();
        };
        let mut edges: Vec<Edge> = self.tree.edges(ROOT).to_vec();
        edges.sort_by_key(|e| std::cmp::Reverse(e.visits));
        let mut out = format!("{} nodes;", self.tree.nodes());
        for e in edges.iter().take(top) {
            let vertex = if e.mv == PASS {
                "pass".to_string()
            } else {
                pos.point(e.mv).vertex(size)
            };
            out.push_str(&format!(
                " {vertex} {} {:.3}{};",
                e.visits,
                e.mean,
                if e.forbidden { "!" } else { "" }
            ));
        }
        out
    }
}

/// The game's position for the search: the board, the side to move, the last two
/// moves and the passes in a row.
fn root_position(game: &Game) -> Position {
    let moves = game.moves();
    let point = |back: usize| match moves.iter().rev().nth(back)?.mv {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    };
    let passes = moves
        .iter()
        .rev()
        .take_while(|m| m.mv == Move::Pass)
        .count()
        .min(2) as u8;
    Position::from_board(game.board(), game.to_move(), [point(0), point(1)], passes)
}

/// Whether passing now ends the game with `colour`'s win: the opponent has just passed
/// and `colour` leads on the current board's area score, komi included.
fn passing_wins(game: &Game, colour: Colour) -> bool {
    let opponent_passed = game.last_move()
        == Some(PlayedMove {
            colour: colour.opponent(),
            mv: Move::Pass,
        });
    opponent_passed && game.score().winner() == Some(colour)
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
