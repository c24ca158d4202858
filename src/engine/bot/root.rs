//! The statistics of the search: one arm per candidate move at the root, chosen like a
//! slot machine (UCB1), with "all moves as first" (RAVE) estimates to start from.
//!
//! Owns which candidate the next playout tries, when the choice is settled and which
//! candidate is finally chosen. Does not play playouts or know the rules: the search
//! hands it rewards.
//!
//! A flat search learns little from one playout about one move. RAVE also credits a
//! playout to every candidate point that the root player played first anywhere in it,
//! which gives rough estimates for all candidates after a few playouts; the direct
//! statistics of a move take over as it is tried (Gelly and Silver, 2007).

use crate::engine::go::{Move, Point};

/// Weight of the RAVE estimate: it counts as much as the direct mean after about this
/// many tries of the move (`beta = sqrt(K / (3 n + K))`).
const RAVE_EQUIVALENCE: f64 = 300.0;

/// The UCB1 exploration constant, small because RAVE already spreads the effort.
const EXPLORATION: f64 = 0.25;

/// The estimate of a candidate without any evidence (not tried, never played first in
/// a playout): above every reward, so it is tried soon.
const FIRST_PLAY: f64 = 1.1;

/// The evidence about one candidate move.
#[derive(Clone, Debug)]
struct Arm {
    /// The candidate.
    mv: Move,
    /// Playouts that started with this move.
    visits: u32,
    /// Sum of their rewards.
    total: f64,
    /// Playouts in which the root player played first at this point, this move
    /// included (for passing: every playout).
    rave_visits: u32,
    /// Sum of their rewards.
    rave_total: f64,
}

impl Arm {
    /// The estimated reward: the direct mean, with the RAVE mean weighing more while
    /// the move has few visits of its own.
    fn value(&self) -> f64 {
        let mean = |total: f64, visits: u32| total / f64::from(visits);
        match (self.visits, self.rave_visits) {
            (0, 0) => FIRST_PLAY,
            (0, r) => mean(self.rave_total, r),
            (v, 0) => mean(self.total, v),
            (v, r) => {
                let beta = (RAVE_EQUIVALENCE / (3.0 * f64::from(v) + RAVE_EQUIVALENCE)).sqrt();
                (1.0 - beta) * mean(self.total, v) + beta * mean(self.rave_total, r)
            }
        }
    }
}

/// The arms of one search and the number of playouts so far.
#[derive(Clone, Debug)]
pub(super) struct Root {
    /// One arm per candidate, in the order given (shuffled by the caller, so that ties
    /// go to a random candidate).
    arms: Vec<Arm>,
    /// Playouts recorded.
    playouts: u32,
}

impl Root {
    /// A root with one arm per candidate, none tried yet.
    pub(super) fn new(candidates: impl IntoIterator<Item = Move>) -> Root {
        let arms = candidates
            .into_iter()
            .map(|mv| Arm {
                mv,
                visits: 0,
                total: 0.0,
                rave_visits: 0,
                rave_total: 0.0,
            })
            .collect();
        Root { arms, playouts: 0 }
    }

    /// Number of candidates.
    pub(super) fn len(&self) -> usize {
        self.arms.len()
    }

    /// Playouts recorded so far.
    pub(super) fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The candidate the next playout should start with (UCB1 on the blended
    /// estimate); `None` when there are no candidates.
    pub(super) fn select(&self) -> Option<Move> {
        let log_total = (f64::from(self.playouts) + 1.0).ln();
        let urgency = |arm: &Arm| {
            arm.value() + EXPLORATION * (log_total / (f64::from(arm.visits) + 1.0)).sqrt()
        };
        self.arms
            .iter()
            .map(|arm| (arm.mv, urgency(arm)))
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
            .map(|(mv, _)| mv)
    }

    /// Records a playout that started with `mv` and earned `reward` for the root
    /// player; `played_first(p)` says whether the root player was first to play at `p`
    /// in it (the starting move included).
    pub(super) fn record(&mut self, mv: Move, reward: f64, played_first: impl Fn(Point) -> bool) {
        self.playouts += 1;
        for arm in &mut self.arms {
            if arm.mv == mv {
                arm.visits += 1;
                arm.total += reward;
            }
            // Passing has no point to be first at: its RAVE estimate is the mean of
            // every playout, what a move of no consequence is worth. This keeps a
            // lucky pass from looking better than moves with a steadier estimate.
            let counts = match arm.mv {
                Move::Play(p) => played_first(p),
                Move::Pass => true,
            };
            if counts {
                arm.rave_visits += 1;
                arm.rave_total += reward;
            }
        }
    }

    /// Whether more playouts cannot change the choice: the most tried candidate leads
    /// every other by more than `playouts_left` tries (or there is at most one).
    pub(super) fn is_settled(&self, playouts_left: u64) -> bool {
        let (mut first, mut second) = (0, 0);
        for arm in &self.arms {
            if arm.visits > first {
                second = first;
                first = arm.visits;
            } else if arm.visits > second {
                second = arm.visits;
            }
        }
        self.arms.len() <= 1 || u64::from(first - second) > playouts_left
    }

    /// The chosen candidate: the most tried, ties going to the higher estimate (and
    /// then to the earlier arm); `None` when there are no candidates.
    pub(super) fn best(&self) -> Option<Move> {
        self.best_arm().map(|arm| arm.mv)
    }

    /// The estimated reward of the chosen candidate, if any.
    pub(super) fn best_value(&self) -> Option<f64> {
        self.best_arm().map(Arm::value)
    }

    /// The arm [`best`](Self::best) chooses.
    fn best_arm(&self) -> Option<&Arm> {
        self.arms.iter().reduce(|best, next| {
            let better = (next.visits, next.value()) > (best.visits, best.value());
            if better { next } else { best }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(row: u8, col: u8) -> Move {
        Move::Play(Point::new(row, col))
    }

    #[test]
    fn untried_candidates_come_first_in_order() {
        let mut root = Root::new([at(0, 0), at(0, 1), at(1, 1)]);
        assert_eq!(root.len(), 3);
        assert_eq!(root.select(), Some(at(0, 0)));
        root.record(at(0, 0), 1.0, |_| false);
        assert_eq!(root.select(), Some(at(0, 1)));
        root.record(at(0, 1), 0.0, |_| false);
        assert_eq!(root.select(), Some(at(1, 1)));
        root.record(at(1, 1), 0.5, |_| false);
        // Every arm tried once: the winner of the first playout comes back.
        assert_eq!(root.select(), Some(at(0, 0)));
        assert_eq!(root.playouts(), 3);
        assert_eq!(Root::new([]).select(), None);
        assert_eq!(Root::new([]).best(), None);
    }

    #[test]
    fn passing_is_worth_the_mean_of_all_playouts_until_tried() {
        let mut root = Root::new([at(0, 0), Move::Pass]);
        root.record(at(0, 0), 1.0, |_| true);
        root.record(at(0, 0), 0.0, |_| true);
        root.record(at(0, 0), 0.5, |_| true);
        assert_eq!(values(&root), [0.5, 0.5]);
        // Its own playouts take over as it is tried: a lost pass pulls it down.
        root.record(Move::Pass, 0.0, |_| false);
        assert!(root.arms[1].value() < 0.5);
        assert_eq!(root.arms[1].rave_visits, 4);
    }

    /// The estimates of every arm, rounded to 1e-9 so sums compare exactly.
    fn values(root: &Root) -> Vec<f64> {
        root.arms
            .iter()
            .map(|arm| (arm.value() * 1e9).round() / 1e9)
            .collect()
    }

    #[test]
    fn rave_gives_estimates_to_untried_points() {
        let mut root = Root::new([at(0, 0), at(0, 1), at(1, 1)]);
        // A won playout from (0, 0) in which the root player also played first at
        // (1, 1), and the opponent at (0, 1).
        root.record(at(0, 0), 1.0, |p| p != Point::new(0, 1));
        assert_eq!(values(&root), [1.0, FIRST_PLAY, 1.0]);
        // A lost playout from (0, 1) in which the root player played nowhere else.
        root.record(at(0, 1), 0.0, |p| p == Point::new(0, 1));
        assert_eq!(values(&root), [1.0, 0.0, 1.0]);
        // Blending: a direct mean of 0 over 1 visit with a RAVE mean of 1 gives beta.
        let mut blend = Root::new([at(0, 0)]);
        blend.record(at(0, 0), 0.0, |_| false);
        blend.record(at(1, 1), 1.0, |_| true);
        let beta = (300.0f64 / 303.0).sqrt();
        assert_eq!(values(&blend), [(beta * 1e9).round() / 1e9]);
    }

    #[test]
    fn the_most_tried_candidate_is_chosen_and_settles_the_search() {
        let mut root = Root::new([at(0, 0), at(0, 1), Move::Pass]);
        for _ in 0..5 {
            root.record(at(0, 1), 0.6, |_| false);
        }
        root.record(at(0, 0), 0.9, |_| false);
        assert_eq!(root.best(), Some(at(0, 1)));
        assert_eq!(root.best_value(), Some(0.6));
        // 5 against 1: settled unless 4 or more playouts remain.
        assert!(root.is_settled(3));
        assert!(!root.is_settled(4));
        // A tie in visits goes to the higher estimate.
        let mut tie = Root::new([at(0, 0), at(0, 1)]);
        tie.record(at(0, 0), 0.2, |_| false);
        tie.record(at(0, 1), 0.7, |_| false);
        assert_eq!(tie.best(), Some(at(0, 1)));
        assert!(!tie.is_settled(0));
        assert!(Root::new([Move::Pass]).is_settled(100));
        assert!(Root::new([]).is_settled(100));
    }
}
