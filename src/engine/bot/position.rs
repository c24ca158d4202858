//! The search's own board: what the tree and the playouts play on, built for speed
//! and for the questions the playout policy asks (is this chain in atari, how many
//! liberties would this stone have, what is around this point).
//!
//! The same layout as the rules engine's board (a 1-D array with a border of
//! off-board cells, chains as circular lists, pseudo-liberties with their sum and sum
//! of squares so that "in atari, and where" is O(1)), with what a playout needs beside
//! it: the list of empty points, the last two moves, the side to move and a count of
//! passes. Its rules are the playouts' cheap ones: simple ko, no suicide. Whether a
//! move is legal in the real game (superko, multi-stone suicide) is the search's
//! business, asked of [`Game`](crate::engine::go::Game) at the root.
//!
//! A location ([`Loc`]) is an index into the padded array; 0 is a border cell, so it
//! stands for "no point" and for a pass ([`PASS`]).

use crate::engine::go::{Board, Colour, Point};

/// A cell of the padded board.
pub(super) type Loc = u16;

/// Not a point: a pass, or no move at all.
pub(super) const PASS: Loc = 0;

/// Cell contents: black and white match [`Colour::number`].
pub(super) const EMPTY: u8 = 0;
/// A black stone.
pub(super) const BLACK: u8 = 1;
/// A white stone.
pub(super) const WHITE: u8 = 2;
/// A cell of the border.
pub(super) const WALL: u8 = 3;

/// The most liberties [`Position::liberties_after`] counts: knowing 0, 1, 2 or "3 or
/// more" is all the policy needs, and stopping there keeps big chains cheap.
pub(super) const LIBERTY_CAP: usize = 3;

/// Statistics of a chain, valid at the chain's head.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chain {
    /// Stones in the chain.
    stones: u16,
    /// Pseudo-liberties: one per (stone, empty neighbour) pair.
    libs: u16,
    /// Sum of the locations of the pseudo-liberties.
    lib_sum: u32,
    /// Sum of their squares (a 25x25 board's largest sum fits: 2,500 pairs of at most
    /// 728² each).
    lib_sq: u32,
}

impl Chain {
    /// Counts `loc` as one more pseudo-liberty.
    fn add_lib(&mut self, loc: Loc) {
        let l = u32::from(loc);
        self.libs += 1;
        self.lib_sum += l;
        self.lib_sq += l * l;
    }

    /// Removes one pseudo-liberty at `loc`.
    fn remove_lib(&mut self, loc: Loc) {
        let l = u32::from(loc);
        self.libs -= 1;
        self.lib_sum -= l;
        self.lib_sq -= l * l;
    }

    /// The only liberty, if every pseudo-liberty is the same point (Cauchy-Schwarz:
    /// `sum² == count * sum of squares` exactly when all are equal).
    fn single_liberty(&self) -> Option<Loc> {
        let n = u64::from(self.libs);
        let sum = u64::from(self.lib_sum);
        (n > 0 && sum * sum == n * u64::from(self.lib_sq)).then(|| (sum / n) as Loc)
    }
}

/// A position of the search: stones, chains, the simple-ko point, the side to move and
/// the last two moves.
#[derive(Clone, Debug)]
pub(super) struct Position {
    /// Side length n.
    size: usize,
    /// n + 2: the distance between vertically adjacent cells.
    stride: usize,
    /// `EMPTY`, `BLACK`, `WHITE` or `WALL`, per cell.
    cells: Vec<u8>,
    /// For a stone, the head of its chain.
    head: Vec<Loc>,
    /// For a stone, the next stone of its chain (circular).
    next: Vec<Loc>,
    /// Chain statistics, valid at heads.
    chains: Vec<Chain>,
    /// Every empty point, in no particular order.
    empties: Vec<Loc>,
    /// For an empty point, its index in `empties`.
    empty_slot: Vec<u16>,
    /// The point the side to move may not play (it would retake a ko at once), or
    /// `PASS` for none.
    ko: Loc,
    /// Whose turn it is.
    to_move: Colour,
    /// The latest move and the one before it (`PASS` for a pass or none).
    last: [Loc; 2],
    /// Passes in a row at the end of the moves so far.
    passes: u8,
    /// Stones on the board, black and white.
    stones: [u32; 2],
}

impl Position {
    /// The position of `board` with `to_move` to play, after `last` (the latest
    /// move first; `None` for a pass or no move) and `passes` passes in a row.
    ///
    /// The board's ko point is not known here: a move that retakes a ko at once is
    /// legal in this position, and the search asks the real game about its root moves.
    pub(super) fn from_board(
        board: &Board,
        to_move: Colour,
        last: [Option<Point>; 2],
        passes: u8,
    ) -> Position {
        let size = board.size();
        let stride = size + 2;
        let cells_len = stride * stride;
        let mut cells = vec![WALL; cells_len];
        for row in 0..size {
            for col in 0..size {
                cells[(row + 1) * stride + col + 1] = EMPTY;
            }
        }
        let mut position = Position {
            size,
            stride,
            cells,
            head: vec![0; cells_len],
            next: vec![0; cells_len],
            chains: vec![Chain::default(); cells_len],
            empties: Vec::with_capacity(size * size),
            empty_slot: vec![0; cells_len],
            ko: PASS,
            to_move,
            last: [PASS; 2],
            passes,
            stones: [0; 2],
        };
        for loc in position.points() {
            position.add_empty(loc);
        }
        for p in board.points() {
            if let Some(colour) = board.get(p) {
                let loc = position.loc(p);
                position.remove_empty(loc);
                position.place(loc, colour);
            }
        }
        position.last = last.map(|p| p.map_or(PASS, |p| position.loc(p)));
        position
    }

    /// Side length of the board.
    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// Whose turn it is.
    pub(super) fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Passes in a row at the end of the moves so far.
    pub(super) fn passes(&self) -> u8 {
        self.passes
    }

    /// The latest move (`PASS` for a pass or none).
    pub(super) fn last(&self) -> Loc {
        self.last[0]
    }

    /// The move before the latest (`PASS` for a pass or none).
    pub(super) fn last2(&self) -> Loc {
        self.last[1]
    }

    /// Number of cells of the padded board (every `Loc` is below it).
    pub(super) fn cells_len(&self) -> usize {
        self.cells.len()
    }

    /// Stones of `colour` on the board.
    pub(super) fn stones(&self, colour: Colour) -> u32 {
        self.stones[colour.slot()]
    }

    /// The location of the on-board point `p`.
    pub(super) fn loc(&self, p: Point) -> Loc {
        ((usize::from(p.row()) + 1) * self.stride + usize::from(p.col()) + 1) as Loc
    }

    /// The point at the on-board location `loc`.
    pub(super) fn point(&self, loc: Loc) -> Point {
        let loc = usize::from(loc);
        Point::new((loc / self.stride - 1) as u8, (loc % self.stride - 1) as u8)
    }

    /// Every on-board location, in board order.
    pub(super) fn points(&self) -> impl Iterator<Item = Loc> + use<> {
        let (size, stride) = (self.size, self.stride);
        (0..size * size).map(move |i| ((i / size + 1) * stride + i % size + 1) as Loc)
    }

    /// Every empty point, in no particular order.
    pub(super) fn empties(&self) -> &[Loc] {
        &self.empties
    }

    /// The content of a cell: `EMPTY`, `BLACK`, `WHITE` or `WALL`.
    #[inline]
    pub(super) fn cell(&self, loc: Loc) -> u8 {
        self.cells[usize::from(loc)]
    }

    /// The four neighbours of the on-board `loc` (some may be border cells).
    #[inline]
    pub(super) fn neighbours(&self, loc: Loc) -> [Loc; 4] {
        let s = self.stride as Loc;
        [loc - s, loc - 1, loc + 1, loc + s]
    }

    /// The four diagonal neighbours of the on-board `loc` (some may be border cells).
    #[inline]
    pub(super) fn diagonals(&self, loc: Loc) -> [Loc; 4] {
        let s = self.stride as Loc;
        [loc - s - 1, loc - s + 1, loc + s - 1, loc + s + 1]
    }

    /// The distance from `loc` to the nearest edge: 0 on the first line.
    pub(super) fn line(&self, loc: Loc) -> usize {
        let p = self.point(loc);
        let (row, col) = (usize::from(p.row()), usize::from(p.col()));
        row.min(col)
            .min(self.size - 1 - row)
            .min(self.size - 1 - col)
    }

    /// The 3x3 neighbourhood of `loc` as 16 bits: the cells (2 bits each) of its
    /// eight neighbours, north-west first, row by row.
    #[inline]
    pub(super) fn neighbourhood(&self, loc: Loc) -> u16 {
        let s = usize::from(loc);
        let w = self.stride;
        let c = &self.cells;
        u16::from(c[s - w - 1])
            | u16::from(c[s - w]) << 2
            | u16::from(c[s - w + 1]) << 4
            | u16::from(c[s - 1]) << 6
            | u16::from(c[s + 1]) << 8
            | u16::from(c[s + w - 1]) << 10
            | u16::from(c[s + w]) << 12
            | u16::from(c[s + w + 1]) << 14
    }

    /// The chain statistics of the stone at `loc`.
    #[inline]
    fn chain(&self, loc: Loc) -> &Chain {
        &self.chains[usize::from(self.head[usize::from(loc)])]
    }

    /// The head of the chain of the stone at `loc`: the same for every stone of it.
    #[inline]
    pub(super) fn head(&self, loc: Loc) -> Loc {
        self.head[usize::from(loc)]
    }

    /// The liberty of the chain at `loc` if it has exactly one (it is in atari).
    #[inline]
    pub(super) fn atari_liberty(&self, loc: Loc) -> Option<Loc> {
        self.chain(loc).single_liberty()
    }

    /// Stones in the chain at `loc`.
    pub(super) fn chain_stones(&self, loc: Loc) -> u16 {
        self.chain(loc).stones
    }

    /// The stones of the chain at `loc`, starting there.
    pub(super) fn stones_of(&self, loc: Loc) -> impl Iterator<Item = Loc> + '_ {
        let mut current = Some(loc);
        std::iter::from_fn(move || {
            let here = current?;
            let next = self.next[usize::from(here)];
            current = (next != loc).then_some(next);
            Some(here)
        })
    }

    /// Up to `out.len()` distinct liberties of the chain at `loc`; returns how many
    /// were found (all of them when fewer than `out.len()`).
    pub(super) fn liberties(&self, loc: Loc, out: &mut [Loc]) -> usize {
        let mut found = 0;
        if out.is_empty() {
            return 0;
        }
        for stone in self.stones_of(loc) {
            for q in self.neighbours(stone) {
                if self.cell(q) == EMPTY && !out[..found].contains(&q) {
                    out[found] = q;
                    found += 1;
                    if found == out.len() {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Whether the side to move may play at `loc` here: an empty point, not the ko
    /// point, not suicide.
    #[inline]
    pub(super) fn is_legal(&self, loc: Loc) -> bool {
        if self.cell(loc) != EMPTY || loc == self.ko {
            return false;
        }
        let own = self.to_move.number();
        for q in self.neighbours(loc) {
            match self.cell(q) {
                EMPTY => return true,
                WALL => {}
                c => {
                    let in_atari_here = self.chain(q).single_liberty() == Some(loc);
                    // An own chain with another liberty, or an opponent chain this
                    // stone captures, leaves the stone a liberty.
                    if (c == own) != in_atari_here {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `loc` is an eye of `colour`: every neighbour is its stone or the edge,
    /// and the opponent holds fewer than two of the diagonal points (fewer than one
    /// on the edge), so the eye cannot be made false.
    #[inline]
    pub(super) fn is_eye(&self, loc: Loc, colour: Colour) -> bool {
        let own = colour.number();
        if self
            .neighbours(loc)
            .iter()
            .any(|&q| self.cell(q) != own && self.cell(q) != WALL)
        {
            return false;
        }
        let other = colour.opponent().number();
        let mut false_points = 0;
        let mut edge = false;
        for q in self.diagonals(loc) {
            match self.cell(q) {
                WALL => edge = true,
                c if c == other => false_points += 1,
                _ => {}
            }
        }
        false_points + usize::from(edge) < 2
    }

    /// What a stone of the side to move at the empty `loc` would become: the
    /// liberties of its chain (counted up to [`LIBERTY_CAP`]) and its stones.
    ///
    /// A capture counts the captured neighbours as liberties, which is a lower bound:
    /// enough to tell an atari from a safe stone.
    pub(super) fn liberties_after(&self, loc: Loc) -> (usize, u32) {
        let own = self.to_move.number();
        let mut libs = [PASS; LIBERTY_CAP];
        let mut found = 0;
        let mut stones = 1u32;
        let mut heads = [PASS; 4];
        let mut merged = 0;
        let add = |q: Loc, libs: &mut [Loc; LIBERTY_CAP], found: &mut usize| {
            if *found < LIBERTY_CAP && q != loc && !libs[..*found].contains(&q) {
                libs[*found] = q;
                *found += 1;
            }
        };
        for q in self.neighbours(loc) {
            match self.cell(q) {
                EMPTY => add(q, &mut libs, &mut found),
                WALL => {}
                c if c == own => {
                    let head = self.head(q);
                    if heads[..merged].contains(&head) {
                        continue;
                    }
                    heads[merged] = head;
                    merged += 1;
                    stones += u32::from(self.chain(q).stones);
                    if found < LIBERTY_CAP {
                        for stone in self.stones_of(q) {
                            for r in self.neighbours(stone) {
                                if self.cell(r) == EMPTY {
                                    add(r, &mut libs, &mut found);
                                }
                            }
                            if found == LIBERTY_CAP {
                                break;
                            }
                        }
                    }
                }
                _ => {
                    if self.chain(q).single_liberty() == Some(loc) {
                        add(q, &mut libs, &mut found);
                    }
                }
            }
        }
        (found, stones)
    }

    /// Whether the side to move's stone at the empty, legal `loc` would be a
    /// self-atari of more than one stone: its chain left with one liberty. A lone
    /// stone in atari is allowed (a throw-in, a nakade point).
    pub(super) fn is_bad_self_atari(&self, loc: Loc) -> bool {
        let (libs, stones) = self.liberties_after(loc);
        libs <= 1 && stones > 1
    }

    /// Plays a stone of the side to move at `loc`, which must be legal
    /// ([`is_legal`](Self::is_legal)). Returns the number of stones captured.
    pub(super) fn play(&mut self, loc: Loc) -> u32 {
        let colour = self.to_move;
        let other = colour.opponent().number();
        self.remove_empty(loc);
        self.place(loc, colour);
        let mut captured = 0;
        let mut last_captured = PASS;
        for q in self.neighbours(loc) {
            if self.cell(q) == other && self.chain(q).libs == 0 {
                last_captured = q;
                captured += self.remove_chain(q);
            }
        }
        let own = *self.chain(loc);
        // A lone stone that took a lone stone and has only that point as liberty:
        // retaking at once would repeat the position.
        self.ko = if captured == 1 && own.stones == 1 && own.libs == 1 {
            last_captured
        } else {
            PASS
        };
        self.last = [loc, self.last[0]];
        self.passes = 0;
        self.to_move = colour.opponent();
        captured
    }

    /// The side to move passes.
    pub(super) fn pass(&mut self) {
        self.ko = PASS;
        self.last = [PASS, self.last[0]];
        self.passes = self.passes.saturating_add(1);
        self.to_move = self.to_move.opponent();
    }

    /// Puts a stone of `colour` on the empty `loc` (already off the empty list),
    /// merging chains, capturing nothing.
    fn place(&mut self, loc: Loc, colour: Colour) {
        let l = usize::from(loc);
        self.cells[l] = colour.number();
        self.head[l] = loc;
        self.next[l] = loc;
        self.chains[l] = Chain {
            stones: 1,
            ..Chain::default()
        };
        self.stones[colour.slot()] += 1;
        for q in self.neighbours(loc) {
            match self.cell(q) {
                EMPTY => self.chains[l].add_lib(q),
                WALL => {}
                _ => {
                    let head = usize::from(self.head(q));
                    self.chains[head].remove_lib(loc);
                }
            }
        }
        for q in self.neighbours(loc) {
            if self.cell(q) == colour.number() && self.head(q) != self.head(loc) {
                self.merge(loc, q);
            }
        }
    }

    /// Merges the chains through `a` and `b`, the smaller into the larger.
    fn merge(&mut self, a: Loc, b: Loc) {
        let (mut keep, mut gone) = (self.head(a), self.head(b));
        if self.chains[usize::from(keep)].stones < self.chains[usize::from(gone)].stones {
            std::mem::swap(&mut keep, &mut gone);
        }
        let mut s = gone;
        loop {
            self.head[usize::from(s)] = keep;
            s = self.next[usize::from(s)];
            if s == gone {
                break;
            }
        }
        self.next.swap(usize::from(keep), usize::from(gone));
        let g = self.chains[usize::from(gone)];
        let k = &mut self.chains[usize::from(keep)];
        k.stones += g.stones;
        k.libs += g.libs;
        k.lib_sum += g.lib_sum;
        k.lib_sq += g.lib_sq;
    }

    /// Removes the chain through `loc`, giving its points back as empty points and
    /// as liberties of the chains around; returns its number of stones.
    fn remove_chain(&mut self, loc: Loc) -> u32 {
        let colour = if self.cell(loc) == BLACK {
            Colour::Black
        } else {
            Colour::White
        };
        let mut removed = 0;
        let mut s = loc;
        loop {
            self.cells[usize::from(s)] = EMPTY;
            self.add_empty(s);
            removed += 1;
            s = self.next[usize::from(s)];
            if s == loc {
                break;
            }
        }
        self.stones[colour.slot()] -= removed;
        // Once every stone is gone, so that the chain's own stones are skipped.
        let mut s = loc;
        loop {
            for q in self.neighbours(s) {
                if matches!(self.cell(q), BLACK | WHITE) {
                    let head = usize::from(self.head(q));
                    self.chains[head].add_lib(s);
                }
            }
            s = self.next[usize::from(s)];
            if s == loc {
                break;
            }
        }
        removed
    }

    /// Adds `loc` to the empty list.
    fn add_empty(&mut self, loc: Loc) {
        self.empty_slot[usize::from(loc)] = self.empties.len() as u16;
        self.empties.push(loc);
    }

    /// Removes `loc` from the empty list.
    fn remove_empty(&mut self, loc: Loc) {
        let slot = usize::from(self.empty_slot[usize::from(loc)]);
        self.empties.swap_remove(slot);
        if let Some(&moved) = self.empties.get(slot) {
            self.empty_slot[usize::from(moved)] = slot as u16;
        }
    }

    /// Whether `other` has the same stones on the same points.
    pub(super) fn same_stones(&self, other: &Position) -> bool {
        self.cells == other.cells
    }

    /// Checks the chains, liberties, stone counts and the empty list against a
    /// recomputation (for tests).
    #[cfg(test)]
    pub(super) fn debug_check(&self) -> Result<(), String> {
        let mut expected = vec![Chain::default(); self.cells.len()];
        let mut counted = [0u32; 2];
        for loc in self.points() {
            match self.cell(loc) {
                EMPTY => {
                    let slot = usize::from(self.empty_slot[usize::from(loc)]);
                    if self.empties.get(slot) != Some(&loc) {
                        return Err(format!("empty {loc} is not listed at its slot"));
                    }
                }
                c => {
                    counted[usize::from(c - 1)] += 1;
                    let head = usize::from(self.head(loc));
                    expected[head].stones += 1;
                    for q in self.neighbours(loc) {
                        if self.cell(q) == EMPTY {
                            expected[head].add_lib(q);
                        } else if self.cell(q) == c && self.head(q) != self.head(loc) {
                            return Err(format!("{loc} and {q} touch in two chains"));
                        }
                    }
                }
            }
        }
        if self.empties.len() != self.points().filter(|&l| self.cell(l) == EMPTY).count() {
            return Err("the empty list has extra points".into());
        }
        if counted != self.stones {
            return Err(format!("stones {:?}, counted {counted:?}", self.stones));
        }
        for loc in self.points().filter(|&l| self.cell(l) != EMPTY) {
            let head = self.head(loc);
            if self.head(head) != head {
                return Err(format!("the head of {loc} is not its own head"));
            }
            if self.chains[usize::from(head)] != expected[usize::from(head)] {
                return Err(format!(
                    "chain {head}: stored {:?}, recomputed {:?}",
                    self.chains[usize::from(head)],
                    expected[usize::from(head)]
                ));
            }
            if expected[usize::from(head)].libs == 0 {
                return Err(format!("chain {head} has no liberties"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position of a diagram, `to_move` to play.
    fn position(diagram: &str, to_move: Colour) -> Position {
        let board = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("{e}: {diagram}"));
        Position::from_board(&board, to_move, [None, None], 0)
    }

    fn at(position: &Position, row: u8, col: u8) -> Loc {
        position.loc(Point::new(row, col))
    }

    #[test]
    fn legality() {
        let diagram = "
            . O . . .
            O . O . .
            . O . . .
            . . . . .
            . . . . .";
        let mut pos = position(diagram, Colour::Black);
        pos.debug_check().expect("consistent");
        // Both points inside white's shape are suicide for black; elsewhere is fine.
        assert!(!pos.is_legal(at(&pos, 1, 1)));
        assert!(!pos.is_legal(at(&pos, 0, 0)));
        assert!(!pos.is_legal(at(&pos, 0, 1)), "occupied");
        assert!(pos.is_legal(at(&pos, 0, 2)));
        pos.pass();
        assert_eq!(pos.to_move(), Colour::White);
        assert!(pos.is_legal(at(&pos, 1, 1)));
        assert!(pos.is_eye(at(&pos, 0, 0), Colour::White));
        assert_eq!(pos.last(), PASS);
    }

    #[test]
    fn a_ko_cannot_be_retaken_at_once() {
        let diagram = "
            . X O .
            X O . O
            . X O .
            . . . .";
        let mut pos = position(diagram, Colour::Black);
        let take = at(&pos, 1, 2);
        assert!(pos.is_legal(take));
        assert_eq!(pos.play(take), 1);
        pos.debug_check().expect("consistent");
        let retake = at(&pos, 1, 1);
        assert_eq!(pos.cell(retake), EMPTY);
        assert!(!pos.is_legal(retake), "the ko point");
        pos.pass();
        pos.pass();
        assert!(pos.is_legal(retake), "after a pass the ko may be retaken");
        assert_eq!(pos.passes(), 2);
    }

    #[test]
    fn atari_and_liberties_after() {
        let diagram = "
            . X O . .
            X O O . .
            . X . . .
            . . . . .
            . . . . .";
        let pos = position(diagram, Colour::Black);
        // The white chain of three has liberties (0, 3), (1, 3), (2, 2).
        let mut libs = [PASS; 4];
        assert_eq!(pos.liberties(at(&pos, 0, 2), &mut libs), 3);
        assert_eq!(pos.atari_liberty(at(&pos, 0, 2)), None);
        // The black stone at (0, 1) is in atari: (0, 0) is its only liberty.
        assert_eq!(pos.atari_liberty(at(&pos, 0, 1)), Some(at(&pos, 0, 0)));
        // Black at (0, 0) joins it to (1, 0): the chain of three keeps (2, 0) only,
        // a self-atari of three stones.
        let corner = at(&pos, 0, 0);
        assert!(pos.is_legal(corner));
        assert_eq!(pos.liberties_after(corner), (1, 3));
        assert!(pos.is_bad_self_atari(corner));
        // Black at (2, 2) is safe.
        assert_eq!(pos.liberties_after(at(&pos, 2, 2)).0, LIBERTY_CAP);
        assert!(!pos.is_bad_self_atari(at(&pos, 2, 2)));
    }

    #[test]
    fn eyes() {
        use Colour::{Black, White};
        // (diagram, colour, row, col, is an eye)
        let table: &[(&str, Colour, u8, u8, bool)] = &[
            ("X X X\n. X .\nX X X", Black, 1, 0, true),
            ("X X X\n. X .\nX X X", White, 1, 0, false),
            ("X X .\nX . X\n. X X", Black, 1, 1, true),
            (". X .\nX . .\n. . .", Black, 0, 0, true),
            (". X .\nX . .\n. . .", Black, 1, 1, false),
            // Two white diagonals make the centre a false eye.
            (". X O .\nX . X .\nO X . .\n. . . .", Black, 1, 1, false),
            // One white diagonal in the middle of the board: still an eye.
            (". X O .\nX . X .\n. X . .\n. . . .", Black, 1, 1, true),
            // On the edge one white diagonal is enough to make it false.
            ("X . X\nO X .\n. . .", Black, 0, 1, false),
        ];
        for &(diagram, colour, row, col, want) in table {
            let pos = position(diagram, colour);
            assert_eq!(
                pos.is_eye(at(&pos, row, col), colour),
                want,
                "{colour} at {row},{col} of\n{diagram}"
            );
        }
    }

    #[test]
    fn random_play_keeps_the_bookkeeping_consistent() {
        let mut rng = crate::engine::rng::Rng::new(5);
        for size in [2, 3, 5, 9, 19] {
            let board = Board::new(size).expect("size");
            let mut pos = Position::from_board(&board, Colour::Black, [None, None], 0);
            for _ in 0..3 * size * size {
                let legal: Vec<Loc> = pos
                    .empties()
                    .iter()
                    .copied()
                    .filter(|&l| pos.is_legal(l))
                    .collect();
                if legal.is_empty() {
                    pos.pass();
                } else {
                    pos.play(legal[rng.below(legal.len())]);
                }
                pos.debug_check()
                    .unwrap_or_else(|e| panic!("{size}x{size}: {e}"));
            }
        }
    }

    #[test]
    fn locations_and_points() {
        let pos = position(". . .\n. . .\n. . .", Colour::Black);
        let locs: Vec<Loc> = pos.points().collect();
        assert_eq!(locs.len(), 9);
        for (i, &loc) in locs.iter().enumerate() {
            assert_eq!(pos.point(loc).index(3), i);
            assert_eq!(pos.loc(pos.point(loc)), loc);
        }
        assert_eq!(pos.line(at(&pos, 1, 1)), 1);
        assert_eq!(pos.line(at(&pos, 0, 1)), 0);
        // The corner's neighbourhood: walls north and west.
        let code = pos.neighbourhood(at(&pos, 0, 0));
        assert_eq!(code & 0b11, u16::from(WALL), "north-west");
        assert_eq!(code >> 14, u16::from(EMPTY), "south-east");
    }
}
