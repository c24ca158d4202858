//! The board: stones, chains with pseudo-liberties, the simple-ko point and an
//! incremental Zobrist hash.
//!
//! Layout follows KataGo's `board.h` and pachi: a 1-D array of `(n + 2) * (n + 2)`
//! cells with a border of off-board cells, so a neighbour loop needs no bounds check.
//! Each chain is a circular linked list of its stones (`next`), every stone knows its
//! chain's head (`head`), and the head holds the chain's statistics.
//!
//! Liberties are *pseudo*-liberties: one per (stone, empty neighbour) pair, so a point
//! next to two stones of a chain counts twice. Besides the count, each chain keeps the
//! sum and the sum of squares of its liberty locations: all pseudo-liberties are the
//! same point (the chain is in atari) exactly when `sum² == count * sum_of_squares`
//! (equality case of Cauchy-Schwarz), and that point is `sum / count`. This makes
//! "would this move capture that chain?" an O(1) question, so legality is predicted
//! without copying the board.
//!
//! Superko is not the board's business: the board only predicts the hash after a move,
//! and [`Game`](super::Game) keeps the history.

use super::{BoardSizeError, Colour, IllegalMove, MAX_SIZE, MIN_SIZE, Point, zobrist};

/// Cell contents. Black and white match [`Colour::number`].
const EMPTY: u8 = 0;
/// A cell of the border.
const WALL: u8 = 3;

/// Statistics of a chain, valid at the chain's head only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chain {
    /// Number of stones.
    stones: u16,
    /// Number of pseudo-liberties.
    libs: u16,
    /// Sum of the locations of the pseudo-liberties.
    lib_sum: u32,
    /// Sum of the squares of the locations of the pseudo-liberties.
    lib_sq: u64,
}

impl Chain {
    /// Counts `loc` as one more pseudo-liberty.
    fn add_lib(&mut self, loc: usize) {
        self.libs += 1;
        self.lib_sum += loc as u32;
        self.lib_sq += (loc * loc) as u64;
    }

    /// Removes one pseudo-liberty at `loc` (which must have been counted).
    fn remove_lib(&mut self, loc: usize) {
        self.libs -= 1;
        self.lib_sum -= loc as u32;
        self.lib_sq -= (loc * loc) as u64;
    }

    /// The chain's only liberty, if it has exactly one (possibly counted several times).
    fn single_liberty(&self) -> Option<usize> {
        let n = u64::from(self.libs);
        let sum = u64::from(self.lib_sum);
        (n > 0 && sum * sum == n * self.lib_sq).then(|| (sum / n) as usize)
    }
}

/// The simple-ko point: `colour` may not play at `loc` on its next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KoPoint {
    /// Location of the stone just captured.
    loc: usize,
    /// The player who may not retake there yet.
    colour: Colour,
}

/// What a legal move will do, as predicted by [`Board::predict`] without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prediction {
    /// Where the stone goes.
    loc: usize,
    /// Whose stone it is.
    colour: Colour,
    /// The board hash after the move.
    pub(crate) hash_after: u64,
}

/// A Go board of size n x n: stones and chains, no history beyond the simple-ko point.
#[derive(Clone, Debug)]
pub struct Board {
    /// Side length n.
    size: usize,
    /// n + 2: distance between vertically adjacent cells.
    stride: usize,
    /// `EMPTY`, black 1, white 2 or `WALL`, per cell.
    cells: Vec<u8>,
    /// For a stone, the location of its chain's head.
    head: Vec<u16>,
    /// For a stone, the next stone of its chain (circular).
    next: Vec<u16>,
    /// Chain statistics, valid at heads.
    chains: Vec<Chain>,
    /// Zobrist hash of the stones.
    hash: u64,
    /// The point the next player may not retake, if the last move took a ko.
    ko: Option<KoPoint>,
    /// Stones on the board per colour.
    stones: [usize; 2],
}

impl Board {
    /// An empty board of `size` x `size`.
    ///
    /// # Errors
    /// [`BoardSizeError`] unless `MIN_SIZE <= size <= MAX_SIZE`.
    pub fn new(size: usize) -> Result<Board, BoardSizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardSizeError { size });
        }
        let stride = size + 2;
        let mut cells = vec![WALL; stride * stride];
        for row in 0..size {
            for col in 0..size {
                cells[(row + 1) * stride + col + 1] = EMPTY;
            }
        }
        Ok(Board {
            size,
            stride,
            cells,
            head: vec![0; stride * stride],
            next: vec![0; stride * stride],
            chains: vec![Chain::default(); stride * stride],
            hash: 0,
            ko: None,
            stones: [0; 2],
        })
    }

    /// Side length of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The colour of the stone at `p`; `None` for an empty point or one off the board.
    pub fn get(&self, p: Point) -> Option<Colour> {
        if !p.is_on_board(self.size) {
            return None;
        }
        Colour::from_number(self.cells[self.loc(p)])
    }

    /// The board as the protocol sends it: n*n digits (`0` empty, `1` black,
    /// `2` white) in index order.
    pub fn to_protocol_string(&self) -> String {
        // Row by row, each row a slice of the cells between the walls: sent after
        // every move, so a copy, not a walk point by point.
        let mut digits = Vec::with_capacity(self.size * self.size);
        for row in 0..self.size {
            let start = (row + 1) * self.stride + 1;
            digits.extend(
                self.cells[start..start + self.size]
                    .iter()
                    .map(|&c| b'0' + c),
            );
        }
        String::from_utf8(digits).unwrap_or_default()
    }

    /// Number of stones of colour `c` on the board.
    pub fn stone_count(&self, c: Colour) -> usize {
        self.stones[c.slot()]
    }

    /// Zobrist hash of the stones on the board (not of the ko point or side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Every point of the board in index order.
    pub(crate) fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..size * size).map(move |i| Point::new((i / size) as u8, (i % size) as u8))
    }

    /// Internal location of an on-board point.
    fn loc(&self, p: Point) -> usize {
        (usize::from(p.row()) + 1) * self.stride + usize::from(p.col()) + 1
    }

    /// The point at internal location `loc` (on the board).
    fn point(&self, loc: usize) -> Point {
        Point::new((loc / self.stride - 1) as u8, (loc % self.stride - 1) as u8)
    }

    /// The four neighbours of `loc`, which must be on the board (so they exist).
    #[inline]
    fn neighbours(&self, loc: usize) -> [usize; 4] {
        [loc - self.stride, loc - 1, loc + 1, loc + self.stride]
    }

    /// The chain statistics of the chain through stone `loc`.
    #[inline]
    fn chain(&self, loc: usize) -> &Chain {
        &self.chains[usize::from(self.head[loc])]
    }

    /// The stones of the chain through `loc`, starting there.
    fn chain_stones(&self, loc: usize) -> impl Iterator<Item = usize> + '_ {
        let mut current = Some(loc);
        std::iter::from_fn(move || {
            let here = current?;
            let next = usize::from(self.next[here]);
            current = (next != loc).then_some(next);
            Some(here)
        })
    }

    /// XOR of the Zobrist keys of the chain through `loc`.
    fn chain_key(&self, loc: usize) -> u64 {
        let colour = self.colour_at(loc);
        self.chain_stones(loc)
            .fold(0, |h, s| h ^ zobrist::stone(colour, s))
    }

    /// The colour of the stone at `loc` (which must hold a stone).
    fn colour_at(&self, loc: usize) -> Colour {
        if self.cells[loc] == Colour::White.number() {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// Decides whether `colour` may play at `p` as far as the board can tell (on the
    /// board, empty, not suicide, not the simple-ko point) and predicts the hash after.
    ///
    /// Superko is the caller's business. Checks in order: off board, occupied,
    /// suicide (single-stone always; multi-stone unless `multi_suicide` allows it), ko.
    pub(crate) fn predict(
        &self,
        colour: Colour,
        p: Point,
        multi_suicide: bool,
    ) -> Result<Prediction, IllegalMove> {
        let size = self.size as u8;
        if !p.is_on_board(self.size) {
            return Err(IllegalMove::OffBoard { point: p, size });
        }
        let loc = self.loc(p);
        if self.cells[loc] != EMPTY {
            return Err(IllegalMove::Occupied { point: p, size });
        }
        let own = colour.number();
        let mut has_liberty = false;
        let mut own_neighbour = false;
        let mut captured_heads = [0u16; 4];
        let mut captured = 0;
        let mut hash_after = self.hash ^ zobrist::stone(colour, loc);
        for q in self.neighbours(loc) {
            match self.cells[q] {
                EMPTY => has_liberty = true,
                WALL => {}
                c => {
                    let single = self.chain(q).single_liberty();
                    if c == own {
                        own_neighbour = true;
                        has_liberty |= single != Some(loc);
                    } else if single == Some(loc) {
                        let head = self.head[q];
                        if !captured_heads[..captured].contains(&head) {
                            captured_heads[captured] = head;
                            captured += 1;
                            hash_after ^= self.chain_key(q);
                        }
                    }
                }
            }
        }
        if !has_liberty && captured == 0 {
            if !own_neighbour || !multi_suicide {
                return Err(IllegalMove::Suicide { point: p, size });
            }
            // Multi-stone suicide: the stone and every neighbouring chain of its own
            // colour (all in atari at `loc`, else there would be a liberty) vanish.
            hash_after = self.hash;
            let mut removed = [0u16; 4];
            let mut count = 0;
            for q in self.neighbours(loc) {
                if self.cells[q] == own && !removed[..count].contains(&self.head[q]) {
                    removed[count] = self.head[q];
                    count += 1;
                    hash_after ^= self.chain_key(q);
                }
            }
        }
        if self.ko == Some(KoPoint { loc, colour }) {
            return Err(IllegalMove::Ko {
                point: p,
                size,
                colour,
            });
        }
        Ok(Prediction {
            loc,
            colour,
            hash_after,
        })
    }

    /// Plays a move that [`predict`](Self::predict) accepted on this very board, and
    /// returns every stone it removed: captured opponent stones or, after a
    /// multi-stone suicide, the mover's own stones.
    pub(crate) fn apply(&mut self, prediction: Prediction) -> Vec<Point> {
        let Prediction { loc, colour, .. } = prediction;
        let opponent = colour.opponent();
        self.place(loc, colour);
        let mut removed = Vec::new();
        for q in self.neighbours(loc) {
            if self.cells[q] == opponent.number() && self.chain(q).libs == 0 {
                self.remove_chain(q, &mut removed);
            }
        }
        let captured_one = removed.len() == 1;
        let own = *self.chain(loc);
        if own.libs == 0 {
            self.remove_chain(loc, &mut removed);
            self.ko = None;
        } else if captured_one && own.stones == 1 && own.libs == 1 {
            // A single stone that took a single stone and has only that point as
            // liberty: retaking at once would repeat the position.
            self.ko = Some(KoPoint {
                loc: self.loc(removed[0]),
                colour: opponent,
            });
        } else {
            self.ko = None;
        }
        debug_assert_eq!(self.hash, prediction.hash_after);
        removed
    }

    /// Records a pass: the simple-ko point lapses.
    pub(crate) fn pass(&mut self) {
        self.ko = None;
    }

    /// Puts a stone of `colour` on the empty `loc`, merging chains, without captures.
    fn place(&mut self, loc: usize, colour: Colour) {
        self.cells[loc] = colour.number();
        self.head[loc] = loc as u16;
        self.next[loc] = loc as u16;
        self.chains[loc] = Chain {
            stones: 1,
            ..Chain::default()
        };
        self.hash ^= zobrist::stone(colour, loc);
        self.stones[colour.slot()] += 1;
        for q in self.neighbours(loc) {
            match self.cells[q] {
                EMPTY => self.chains[loc].add_lib(q),
                WALL => {}
                _ => {
                    let head = usize::from(self.head[q]);
                    self.chains[head].remove_lib(loc);
                }
            }
        }
        for q in self.neighbours(loc) {
            if self.cells[q] == colour.number() && self.head[q] != self.head[loc] {
                self.merge(loc, q);
            }
        }
    }

    /// Puts a stone of `colour` on `p` as a setup position does: merging chains,
    /// capturing nothing. Returns false, and changes nothing, when `p` is off the board
    /// or not empty.
    pub(crate) fn put(&mut self, p: Point, colour: Colour) -> bool {
        if !p.is_on_board(self.size) {
            return false;
        }
        let loc = self.loc(p);
        if self.cells[loc] != EMPTY {
            return false;
        }
        self.place(loc, colour);
        true
    }

    /// The stones of the chain through `p`, in index order, if that chain has no
    /// liberties (only a setup can leave one so); `None` for a chain with liberties,
    /// an empty point or a point off the board.
    pub(crate) fn chain_without_liberties(&self, p: Point) -> Option<Vec<Point>> {
        self.get(p)?;
        let loc = self.loc(p);
        if self.chain(loc).libs != 0 {
            return None;
        }
        let mut stones: Vec<Point> = self.chain_stones(loc).map(|s| self.point(s)).collect();
        stones.sort_by_key(|q| q.index(self.size));
        Some(stones)
    }

    /// Merges the chains through `a` and `b` (distinct chains of one colour).
    fn merge(&mut self, a: usize, b: usize) {
        let (mut keep, mut gone) = (usize::from(self.head[a]), usize::from(self.head[b]));
        if self.chains[keep].stones < self.chains[gone].stones {
            std::mem::swap(&mut keep, &mut gone);
        }
        let mut s = gone;
        loop {
            self.head[s] = keep as u16;
            s = usize::from(self.next[s]);
            if s == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
        let g = self.chains[gone];
        let k = &mut self.chains[keep];
        k.stones += g.stones;
        k.libs += g.libs;
        k.lib_sum += g.lib_sum;
        k.lib_sq += g.lib_sq;
    }

    /// Removes the chain through `loc`, appending its points to `removed` and giving
    /// the liberties back to the neighbouring chains.
    fn remove_chain(&mut self, loc: usize, removed: &mut Vec<Point>) {
        let colour = self.colour_at(loc);
        let first = removed.len();
        let mut s = loc;
        loop {
            self.cells[s] = EMPTY;
            self.hash ^= zobrist::stone(colour, s);
            removed.push(self.point(s));
            s = usize::from(self.next[s]);
            if s == loc {
                break;
            }
        }
        self.stones[colour.slot()] -= removed.len() - first;
        // Second pass, once every stone is gone, so the chain's own stones are skipped.
        let mut s = loc;
        loop {
            for q in self.neighbours(s) {
                if self.cells[q] != EMPTY && self.cells[q] != WALL {
                    let head = usize::from(self.head[q]);
                    self.chains[head].add_lib(s);
                }
            }
            s = usize::from(self.next[s]);
            if s == loc {
                break;
            }
        }
    }

    /// The Tromp-Taylor area score of this board with `komi`.
    pub fn score(&self, komi: super::Komi) -> super::Score {
        let (black_points, white_points) = self.area();
        super::Score {
            black_points,
            white_points,
            komi,
        }
    }

    /// Area score (Tromp-Taylor): stones plus empty regions bordering only one colour,
    /// as `(black, white)`, without komi.
    pub(crate) fn area(&self) -> (u32, u32) {
        let mut points = [self.stones[0] as u32, self.stones[1] as u32];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = Vec::new();
        for start in self.points().map(|p| self.loc(p)) {
            if self.cells[start] != EMPTY || seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let (mut region, mut borders) = (0u32, 0u8);
            while let Some(s) = stack.pop() {
                region += 1;
                for q in self.neighbours(s) {
                    match self.cells[q] {
                        EMPTY if !seen[q] => {
                            seen[q] = true;
                            stack.push(q);
                        }
                        EMPTY | WALL => {}
                        c => borders |= c,
                    }
                }
            }
            match borders {
                1 => points[0] += region,
                2 => points[1] += region,
                _ => {}
            }
        }
        (points[0], points[1])
    }

    /// The hash recomputed from scratch, for consistency checks.
    #[doc(hidden)]
    pub fn recomputed_hash(&self) -> u64 {
        self.points()
            .map(|p| self.loc(p))
            .filter(|&l| self.cells[l] != EMPTY)
            .fold(0, |h, l| h ^ zobrist::stone(self.colour_at(l), l))
    }

    /// Checks every internal invariant against a from-scratch recomputation (for tests,
    /// like KataGo's `checkConsistency`): borders, chain membership, liberty statistics,
    /// stone counts, no chain without liberties, the hash and the ko point.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    #[doc(hidden)]
    pub fn debug_check(&self) -> Result<(), String> {
        let n = self.stride;
        for loc in 0..self.cells.len() {
            let (row, col) = (loc / n, loc % n);
            let border = row == 0 || col == 0 || row == n - 1 || col == n - 1;
            if border != (self.cells[loc] == WALL) {
                return Err(format!("cell {loc} border mismatch"));
            }
        }
        let mut counted = [0usize; 2];
        let mut visited = vec![false; self.cells.len()];
        for start in self.points().map(|p| self.loc(p)) {
            let c = self.cells[start];
            if c == EMPTY || visited[start] {
                continue;
            }
            counted[usize::from(c - 1)] += 1;
            // Flood fill the chain and recompute its statistics.
            let mut expected = Chain::default();
            let mut members = vec![start];
            visited[start] = true;
            let mut i = 0;
            while i < members.len() {
                let s = members[i];
                i += 1;
                expected.stones += 1;
                for q in self.neighbours(s) {
                    if self.cells[q] == EMPTY {
                        expected.add_lib(q);
                    } else if self.cells[q] == c && !visited[q] {
                        visited[q] = true;
                        members.push(q);
                    }
                }
            }
            counted[usize::from(c - 1)] += members.len() - 1;
            let head = self.head[start];
            if members.iter().any(|&m| self.head[m] != head) {
                return Err(format!(
                    "chain at {} has mixed heads",
                    self.point(start).vertex(self.size)
                ));
            }
            let mut listed: Vec<usize> = self.chain_stones(start).take(members.len() + 1).collect();
            listed.sort_unstable();
            members.sort_unstable();
            if listed != members {
                return Err(format!(
                    "chain at {} has a broken stone list",
                    self.point(start).vertex(self.size)
                ));
            }
            if *self.chain(start) != expected {
                return Err(format!(
                    "chain at {}: stored {:?}, recomputed {:?}",
                    self.point(start).vertex(self.size),
                    self.chain(start),
                    expected
                ));
            }
            if expected.libs == 0 {
                return Err(format!(
                    "chain at {} has no liberties",
                    self.point(start).vertex(self.size)
                ));
            }
        }
        if counted != self.stones {
            return Err(format!(
                "stone counts {:?}, recomputed {counted:?}",
                self.stones
            ));
        }
        if self.hash != self.recomputed_hash() {
            return Err("incremental hash differs from the recomputed hash".to_string());
        }
        if let Some(ko) = self.ko
            && self.cells[ko.loc] != EMPTY
        {
            return Err("ko point is not empty".to_string());
        }
        Ok(())
    }

    /// Builds a board from a diagram, placing stones without captures.
    ///
    /// # Errors
    /// A message if the rows are ragged, the size is out of range, a cell is not
    /// `.`, `X` or `O`, or a chain has no liberties.
    pub(crate) fn from_rows(rows: &[Vec<Option<Colour>>]) -> Result<Board, String> {
        let size = rows.len();
        let mut board = Board::new(size).map_err(|e| e.to_string())?;
        for (r, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!(
                    "row {} has {} points, expected {size}",
                    r + 1,
                    row.len()
                ));
            }
            for (c, cell) in row.iter().enumerate() {
                if let Some(colour) = cell {
                    let loc = board.loc(Point::new(r as u8, c as u8));
                    board.place(loc, *colour);
                }
            }
        }
        for p in board.points() {
            let loc = board.loc(p);
            if board.cells[loc] != EMPTY && board.chain(loc).libs == 0 {
                return Err(format!("the chain at {} has no liberties", p.vertex(size)));
            }
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(Board::new(1).err(), Some(BoardSizeError { size: 1 }));
        assert_eq!(Board::new(26).err(), Some(BoardSizeError { size: 26 }));
        assert_eq!(Board::new(0).err(), Some(BoardSizeError { size: 0 }));
        for size in MIN_SIZE..=MAX_SIZE {
            let board = Board::new(size).expect("valid size");
            assert_eq!(board.size(), size);
            assert_eq!(board.to_protocol_string(), "0".repeat(size * size));
            assert_eq!(board.hash(), 0);
            board.debug_check().expect("consistent");
        }
    }

    #[test]
    fn atari_detection() {
        let mut chain = Chain::default();
        chain.add_lib(30);
        chain.add_lib(30);
        assert_eq!(chain.single_liberty(), Some(30));
        chain.add_lib(31);
        assert_eq!(chain.single_liberty(), None);
        chain.remove_lib(30);
        chain.remove_lib(30);
        assert_eq!(chain.single_liberty(), Some(31));
        chain.remove_lib(31);
        assert_eq!(chain.single_liberty(), None);
    }

    #[test]
    fn get_off_board() {
        let board = Board::new(5).expect("valid size");
        assert_eq!(board.get(Point::new(5, 0)), None);
        assert_eq!(board.get(Point::new(0, 255)), None);
        assert_eq!(board.get(Point::new(4, 4)), None);
    }
}
