//! The search tree: positions reached from the root, each with one edge per move
//! considered there, and the statistics that choose which move to try next.
//!
//! Owns the memory of the tree (two flat arrays, nodes and edges, indexed by number:
//! no pointers, cheap to copy when the root moves on), the choice of an edge by its
//! blended estimate, the updates after a simulation, and keeping the subtree of the
//! position actually reached when the game moves on. Knows nothing of Go but the
//! location of each edge's move: positions are replayed by the search.
//!
//! The estimate of an edge blends its mean reward with its "all moves as first"
//! (RAVE) mean: the rewards of every simulation through its node in which the mover
//! played the edge's point first, later. RAVE gives every move an estimate after a
//! few simulations; the edge's own mean takes over as it is tried (Gelly and Silver,
//! 2007, with the schedule of michi and Pachi). Priors from the heuristics start both
//! the mean and its weight, as if some simulations had already been run. There is no
//! exploration term: RAVE and the priors spread the effort.

use super::position::{Loc, PASS};

/// A node's number; the root is node 0, which is never a child.
pub(super) type NodeId = u32;
/// An edge's number.
pub(super) type EdgeId = u32;

/// No child yet.
const NO_CHILD: NodeId = 0;

/// RAVE's weight: the number of an edge's own simulations at which its mean and its
/// RAVE mean count alike (larger: RAVE counts longer).
const RAVE_EQUIVALENCE: f32 = 3500.0;

/// One move from a node, with its statistics (from the mover's side).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Edge {
    /// The move: a location, or `PASS`.
    pub(super) mv: Loc,
    /// At the root only: the real game refuses this move (superko), so it is never
    /// chosen there.
    pub(super) forbidden: bool,
    /// Passing here is the second pass in a row: it ends the game, and its value is
    /// the exact score, known when the edge was made.
    pub(super) terminal: bool,
    /// The node this move leads to, once expanded.
    child: NodeId,
    /// Simulations through this edge (priors not included).
    pub(super) visits: u32,
    /// The weight of `mean`: simulations plus the priors' pretend ones.
    weight: f32,
    /// The mean reward for the mover.
    pub(super) mean: f32,
    /// Simulations through the node in which the mover played this point first.
    rave_weight: f32,
    /// Their mean reward for the mover.
    rave_mean: f32,
}

impl Edge {
    /// An edge for `mv` starting from a prior: `weight` pretend simulations whose mean
    /// reward is `mean`.
    pub(super) fn new(mv: Loc, weight: f32, mean: f32) -> Edge {
        Edge {
            mv,
            forbidden: false,
            terminal: false,
            child: NO_CHILD,
            visits: 0,
            weight,
            mean,
            rave_weight: 0.0,
            rave_mean: 0.0,
        }
    }

    /// The estimate that selection maximises: the mean blended with the RAVE mean.
    #[inline]
    fn urgency(&self) -> f32 {
        if self.rave_weight == 0.0 {
            return self.mean;
        }
        let (n, a) = (self.weight, self.rave_weight);
        let beta = a / (a + n + n * a / RAVE_EQUIVALENCE);
        beta * self.rave_mean + (1.0 - beta) * self.mean
    }
}

/// A node: the range of its edges, empty until it is expanded.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Its first edge.
    first: EdgeId,
    /// Its number of edges.
    len: u32,
}

/// The tree of one search, kept from one move to the next.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    /// Every node; the root first.
    nodes: Vec<Node>,
    /// Every edge, each node's together.
    edges: Vec<Edge>,
    /// The most edges the tree may hold: beyond it, nothing more is expanded.
    max_edges: usize,
}

/// The root's number.
pub(super) const ROOT: NodeId = 0;

impl Tree {
    /// A tree of one unexpanded root that will hold at most `max_edges` edges.
    pub(super) fn new(max_edges: usize) -> Tree {
        Tree {
            nodes: vec![Node::default()],
            edges: Vec::new(),
            max_edges,
        }
    }

    /// Nodes in the tree.
    pub(super) fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Whether `node` has its edges.
    pub(super) fn is_expanded(&self, node: NodeId) -> bool {
        self.nodes[node as usize].len > 0
    }

    /// Whether `more` edges still fit.
    pub(super) fn has_room(&self, more: usize) -> bool {
        self.edges.len() + more <= self.max_edges
    }

    /// Gives the unexpanded `node` its edges. The caller checks
    /// [`has_room`](Self::has_room) first; an empty list leaves it unexpanded.
    pub(super) fn expand(&mut self, node: NodeId, edges: &[Edge]) {
        let first = self.edges.len() as EdgeId;
        self.edges.extend_from_slice(edges);
        self.nodes[node as usize] = Node {
            first,
            len: edges.len() as u32,
        };
    }

    /// Adds an unexpanded child below `edge` and returns it.
    pub(super) fn add_child(&mut self, edge: EdgeId) -> NodeId {
        let child = self.nodes.len() as NodeId;
        self.nodes.push(Node::default());
        self.edges[edge as usize].child = child;
        child
    }

    /// The child below `edge`, if expanded.
    pub(super) fn child(&self, edge: EdgeId) -> Option<NodeId> {
        let child = self.edges[edge as usize].child;
        (child != NO_CHILD).then_some(child)
    }

    /// The numbers of `node`'s edges.
    pub(super) fn edge_ids(&self, node: NodeId) -> std::ops::Range<EdgeId> {
        let Node { first, len } = self.nodes[node as usize];
        first..first + len
    }

    /// The edges of `node`.
    pub(super) fn edges(&self, node: NodeId) -> &[Edge] {
        let Node { first, len } = self.nodes[node as usize];
        &self.edges[first as usize..(first + len) as usize]
    }

    /// The edges of `node`, to change (the root's `forbidden` marks).
    pub(super) fn edges_mut(&mut self, node: NodeId) -> &mut [Edge] {
        let Node { first, len } = self.nodes[node as usize];
        &mut self.edges[first as usize..(first + len) as usize]
    }

    /// One edge.
    pub(super) fn edge(&self, edge: EdgeId) -> &Edge {
        &self.edges[edge as usize]
    }

    /// The edge of `node` to try next: the highest estimate that is not forbidden
    /// (the earliest among equals); `None` if there is none.
    pub(super) fn select(&self, node: NodeId) -> Option<EdgeId> {
        let mut best = None;
        let mut best_urgency = f32::NEG_INFINITY;
        for id in self.edge_ids(node) {
            let edge = &self.edges[id as usize];
            if edge.forbidden {
                continue;
            }
            let urgency = edge.urgency();
            if urgency > best_urgency {
                best_urgency = urgency;
                best = Some(id);
            }
        }
        best
    }

    /// Records a simulation through `edge` worth `reward` to its mover.
    #[inline]
    pub(super) fn record(&mut self, edge: EdgeId, reward: f32) {
        let e = &mut self.edges[edge as usize];
        e.visits += 1;
        e.weight += 1.0;
        e.mean += (reward - e.mean) / e.weight;
    }

    /// Records a simulation through `node` in the RAVE statistics of each of its
    /// edges for which `played_first(mv)` holds (the mover played there first, later
    /// in the simulation), worth `reward` to the node's mover. Passes have no RAVE.
    #[inline]
    pub(super) fn record_rave(
        &mut self,
        node: NodeId,
        reward: f32,
        played_first: impl Fn(Loc) -> bool,
    ) {
        let Node { first, len } = self.nodes[node as usize];
        for e in &mut self.edges[first as usize..(first + len) as usize] {
            if e.mv != PASS && played_first(e.mv) {
                e.rave_weight += 1.0;
                e.rave_mean += (reward - e.rave_mean) / e.rave_weight;
            }
        }
    }

    /// The edge of the root to play: the most visited one that is not forbidden,
    /// ties going to the higher mean.
    pub(super) fn best_root_edge(&self) -> Option<EdgeId> {
        let mut best: Option<EdgeId> = None;
        for id in self.edge_ids(ROOT) {
            let e = &self.edges[id as usize];
            if e.forbidden {
                continue;
            }
            let better = best.is_none_or(|b| {
                let b = &self.edges[b as usize];
                (e.visits, e.mean) > (b.visits, b.mean)
            });
            if better {
                best = Some(id);
            }
        }
        best
    }

    /// Whether the choice at the root cannot change in `left` more simulations: the
    /// most visited edge leads every other one by more than that (or there is at most
    /// one edge to choose from).
    pub(super) fn is_settled(&self, left: u64) -> bool {
        let (mut first, mut second, mut open) = (0u32, 0u32, 0usize);
        for e in self.edges(ROOT).iter().filter(|e| !e.forbidden) {
            open += 1;
            if e.visits > first {
                second = first;
                first = e.visits;
            } else if e.visits > second {
                second = e.visits;
            }
        }
        open <= 1 || u64::from(first - second) > left
    }

    /// The tree below `node` as a tree of its own, `node` its root; everything else
    /// is dropped. Marks of `forbidden` are cleared (they were about the old root).
    pub(super) fn subtree(&self, node: NodeId) -> Tree {
        let mut tree = Tree::new(self.max_edges);
        let mut stack = vec![(node, ROOT)];
        while let Some((old, new)) = stack.pop() {
            let first = tree.edges.len() as EdgeId;
            for e in self.edges(old) {
                let mut e = *e;
                e.forbidden = false;
                if e.child != NO_CHILD {
                    let child = tree.nodes.len() as NodeId;
                    tree.nodes.push(Node::default());
                    stack.push((e.child, child));
                    e.child = child;
                }
                tree.edges.push(e);
            }
            tree.nodes[new as usize] = Node {
                first,
                len: tree.edges.len() as EdgeId - first,
            };
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_follows_the_estimates_and_skips_forbidden_edges() {
        let mut tree = Tree::new(100);
        tree.expand(
            ROOT,
            &[
                Edge::new(10, 10.0, 0.5),
                Edge::new(11, 10.0, 0.6),
                Edge::new(PASS, 10.0, 0.1),
            ],
        );
        assert_eq!(tree.select(ROOT), Some(1));
        tree.edges_mut(ROOT)[1].forbidden = true;
        assert_eq!(tree.select(ROOT), Some(0));
        // Losses pull the mean of edge 0 below the pass's.
        for _ in 0..100 {
            tree.record(0, 0.0);
        }
        assert_eq!(tree.select(ROOT), Some(2));
        assert_eq!(tree.edge(0).visits, 100);
        assert!(tree.edge(0).mean < 0.05);
        // RAVE: wins for point 10 raise its estimate although its own mean is low.
        for _ in 0..2000 {
            tree.record_rave(ROOT, 1.0, |mv| mv == 10);
        }
        assert_eq!(tree.select(ROOT), Some(0));
        // The pass has no RAVE.
        assert_eq!(tree.edge(2).rave_weight, 0.0);
    }

    #[test]
    fn the_best_edge_is_the_most_visited_and_settles_the_choice() {
        let mut tree = Tree::new(100);
        tree.expand(ROOT, &[Edge::new(10, 0.0, 0.5), Edge::new(11, 0.0, 0.5)]);
        for _ in 0..5 {
            tree.record(1, 0.4);
        }
        tree.record(0, 0.9);
        assert_eq!(tree.best_root_edge(), Some(1));
        assert!(tree.is_settled(3));
        assert!(!tree.is_settled(4));
        tree.edges_mut(ROOT)[1].forbidden = true;
        assert_eq!(tree.best_root_edge(), Some(0));
        assert!(tree.is_settled(1000), "one edge left to choose from");
    }

    #[test]
    fn a_subtree_keeps_the_statistics_below_its_root() {
        let mut tree = Tree::new(100);
        tree.expand(ROOT, &[Edge::new(10, 0.0, 0.5), Edge::new(11, 0.0, 0.5)]);
        let a = tree.add_child(0);
        tree.expand(a, &[Edge::new(12, 0.0, 0.5), Edge::new(13, 0.0, 0.5)]);
        let b = tree.add_child(tree.edge_ids(a).start + 1);
        tree.expand(b, &[Edge::new(14, 0.0, 0.5)]);
        tree.record(tree.edge_ids(b).start, 1.0);
        let c = tree.add_child(1);
        tree.expand(c, &[Edge::new(15, 0.0, 0.5)]);
        assert_eq!(tree.nodes(), 4);
        let sub = tree.subtree(a);
        assert_eq!(sub.nodes(), 2);
        assert_eq!(
            sub.edges(ROOT).iter().map(|e| e.mv).collect::<Vec<_>>(),
            [12, 13]
        );
        let below = sub.child(1).expect("the child of 13");
        assert_eq!(sub.edges(below)[0].mv, 14);
        assert_eq!(sub.edges(below)[0].visits, 1);
        assert_eq!(sub.child(0), None);
    }
}
