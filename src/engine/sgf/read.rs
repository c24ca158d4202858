//! Reading the SGF a client sends: sgf-parse turns the text into a tree, and this
//! file checks the main line of the first game tree and turns it into an [`SgfGame`].
//! Judging the moves is the engine's business ([`SgfGame::replay`]).
//!
//! What is read: `FF` (4 or absent), `GM` (1 or absent), `SZ` (one number, 19 when
//! absent), the first node's `AB`, `AW` and `PL`, and `B`/`W` in every node of the
//! main line (the first variation at each branch). Every other property is ignored,
//! whatever its value, as are further variations and further game trees.

use std::ops::RangeInclusive;
use std::thread;

use sgf_parse::go::Prop;
use sgf_parse::{Color, GameTree, ParseOptions, SgfNode, SgfProp};

use super::error::quoted;
use super::notation::{board_point, is_old_pass, sgf_point_text};
use super::{SgfError, SgfGame};
use crate::engine::go::{Colour, Game, MAX_SIZE, MIN_SIZE, Move, PlayedMove, Point, Rules, Setup};

/// The properties this reader uses; every other one is ignored.
const READ: [&str; 9] = ["FF", "GM", "SZ", "AB", "AW", "AE", "PL", "B", "W"];
/// Properties of the first node only.
const ROOT_ONLY: [&str; 3] = ["FF", "GM", "SZ"];
/// Setup properties.
const SETUP: [&str; 4] = ["AB", "AW", "AE", "PL"];
/// Move properties.
const MOVES: [&str; 2] = ["B", "W"];
/// The board size of a record without `SZ`.
const DEFAULT_SIZE: usize = 19;

/// Stack for the parsing thread besides the tree (see [`read`]).
const READER_BASE_STACK: usize = 1024 * 1024;
/// Stack per node of the tree: sgf-parse drops its tree recursively, one level per
/// node of a line (about 64 bytes in release builds, 170 in debug ones, measured).
const READER_STACK_PER_NODE: usize = 512;

/// What [`read`] accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The longest text read, in bytes; a longer one is refused without being parsed.
    pub max_bytes: usize,
    /// The board sizes accepted; only those the engine plays too
    /// (`MIN_SIZE..=MAX_SIZE`) are.
    pub sizes: RangeInclusive<usize>,
}

impl Default for ReadLimits {
    /// 64 KiB (the Bkgo front end's limit) and every size the engine plays.
    fn default() -> ReadLimits {
        ReadLimits {
            max_bytes: 64 * 1024,
            sizes: MIN_SIZE..=MAX_SIZE,
        }
    }
}

/// Reads an SGF record into its size, setup and moves (not yet judged by the rules).
///
/// sgf-parse builds a tree with one level per node and frees it recursively, so a
/// long line of nodes needs a deep stack (a 64 KiB text can hold 65,000 nodes). The
/// parse therefore runs on a short-lived thread whose stack is sized for the text's
/// node count, whatever the caller's own stack is.
///
/// # Errors
/// [`SgfError::TooLarge`] before any parsing; then a syntax error, the wrong game or
/// format, a bad size, a point off the board, a misplaced or repeated property, or a
/// value that is not valid (see [`SgfError`]).
pub fn read(text: &str, limits: &ReadLimits) -> Result<SgfGame, SgfError> {
    if text.len() > limits.max_bytes {
        return Err(SgfError::TooLarge {
            bytes: text.len(),
            limit: limits.max_bytes,
        });
    }
    // Every node starts with a ';', so this bounds the depth of the tree.
    let semicolons = text.bytes().filter(|&b| b == b';').count();
    let stack = READER_STACK_PER_NODE
        .saturating_mul(semicolons)
        .saturating_add(READER_BASE_STACK);
    thread::scope(|scope| {
        let reader = thread::Builder::new()
            .name("sgf-read".to_string())
            .stack_size(stack)
            .spawn_scoped(scope, || parse(text, limits));
        match reader {
            Ok(handle) => handle.join().unwrap_or(Err(SgfError::ReaderFailed)),
            Err(_) => Err(SgfError::ReaderUnavailable),
        }
    })
}

/// Reads an SGF record and replays it on the engine under `rules`: the game a
/// client's record describes, ready to go on.
///
/// # Errors
/// As [`read`], then as [`SgfGame::replay`].
pub fn load(text: &str, limits: &ReadLimits, rules: Rules) -> Result<Game, SgfError> {
    read(text, limits)?.replay(rules)
}

/// Parses `text` with sgf-parse (strict FF[4]) and reads its first game tree.
fn parse(text: &str, limits: &ReadLimits) -> Result<SgfGame, SgfError> {
    let options = ParseOptions {
        convert_mixed_case_identifiers: false,
        lenient: false,
    };
    let start = text.trim_start();
    if !start.is_empty() && !start.starts_with('(') {
        let before = start.split('(').next().unwrap_or(start);
        return Err(SgfError::TextBeforeGameTree {
            text: super::error::quoted(before.trim_end()),
        });
    }
    let trees = sgf_parse::parse_with_options(text, &options).map_err(SgfError::Syntax)?;
    // sgf-parse passes over nodes written after the last game tree; a record that
    // seems to go on after it is refused rather than read in part.
    let end = text.trim_end();
    if let Some(close) = end.rfind(')') {
        let after = &end[close + 1..];
        if !after.is_empty() {
            return Err(SgfError::TextAfterGameTree {
                text: super::error::quoted(after.trim_start()),
            });
        }
    }
    match trees.first() {
        Some(GameTree::GoGame(root)) => main_line(root, limits),
        Some(GameTree::Unknown(root)) => {
            let game = match root.get_property("GM") {
                Some(sgf_parse::unknown_game::Prop::GM(game)) => *game,
                _ => 0,
            };
            Err(SgfError::NotGo { game })
        }
        None => Err(SgfError::Syntax(sgf_parse::SgfParseError::NoGameTrees)),
    }
}

/// Reads the main line below `root`: placement first, then the format and the size,
/// the setup, and the moves in order.
fn main_line(root: &SgfNode<Prop>, limits: &ReadLimits) -> Result<SgfGame, SgfError> {
    let nodes: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    for (index, node) in nodes.iter().enumerate() {
        check_placement(index + 1, node)?;
    }
    check_format(root)?;
    let size = board_size(root, limits)?;
    let black = setup_points(root, "AB", size)?;
    let white = setup_points(root, "AW", size)?;
    let first = match root.get_property("PL") {
        None => None,
        Some(Prop::PL(Color::Black)) => Some(Colour::Black),
        Some(Prop::PL(Color::White)) => Some(Colour::White),
        Some(other) => return Err(bad_value(1, "PL", other)),
    };
    let mut moves = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        if let Some(played) = node_move(index + 1, node, size)? {
            moves.push(played);
        }
    }
    // AE in the first node erases points of an empty board: nothing, so it is read
    // (checked where it stands) and changes nothing.
    let has_setup = ["AB", "AW", "PL"]
        .iter()
        .any(|&id| root.get_property(id).is_some());
    // Without PL, the first move says who starts (as in handicap games, or a record
    // that simply begins with white: FF[4] does not say black starts), else black.
    let to_move = first
        .or_else(|| moves.first().map(|m| m.colour))
        .unwrap_or(Colour::Black);
    let setup = (has_setup || to_move == Colour::White).then(|| {
        Setup {
            black,
            white,
            to_move,
        }
        .sorted()
    });
    Ok(SgfGame { size, setup, moves })
}

/// Refuses a property this reader uses when it is repeated or out of place, and a
/// node with two moves or with both setup and a move.
fn check_placement(node: usize, content: &SgfNode<Prop>) -> Result<(), SgfError> {
    let mut seen: Vec<&'static str> = Vec::new();
    for prop in content.properties() {
        let identifier = prop.identifier();
        let Some(property) = READ.into_iter().find(|&id| id == identifier) else {
            continue;
        };
        if seen.contains(&property) {
            return Err(SgfError::RepeatedProperty { node, property });
        }
        if node > 1 && ROOT_ONLY.contains(&property) {
            return Err(SgfError::RootProperty { node, property });
        }
        if node > 1 && SETUP.contains(&property) {
            return Err(SgfError::LateSetup { node, property });
        }
        seen.push(property);
    }
    if seen.contains(&"B") && seen.contains(&"W") {
        return Err(SgfError::TwoMoves { node });
    }
    let setup = seen.iter().find(|id| SETUP.contains(id));
    let mv = seen.iter().find(|id| MOVES.contains(id));
    if let (Some(&setup), Some(&mv)) = (setup, mv) {
        return Err(SgfError::SetupAndMove { setup, mv });
    }
    Ok(())
}

/// Refuses `FF` other than 4 and `GM` other than 1 in the first node.
fn check_format(root: &SgfNode<Prop>) -> Result<(), SgfError> {
    match root.get_property("FF") {
        None | Some(Prop::FF(4)) => {}
        Some(Prop::FF(version)) => return Err(SgfError::UnsupportedFormat { version: *version }),
        Some(other) => return Err(bad_value(1, "FF", other)),
    }
    match root.get_property("GM") {
        None | Some(Prop::GM(1)) => Ok(()),
        Some(Prop::GM(game)) => Err(SgfError::NotGo { game: *game }),
        Some(other) => Err(bad_value(1, "GM", other)),
    }
}

/// The board size: `SZ`, or 19 without it, within the sizes both the caller and the
/// engine accept.
fn board_size(root: &SgfNode<Prop>, limits: &ReadLimits) -> Result<usize, SgfError> {
    let smallest = (*limits.sizes.start()).max(MIN_SIZE);
    let largest = (*limits.sizes.end()).min(MAX_SIZE);
    let allowed = smallest..=largest;
    match root.get_property("SZ") {
        None if allowed.contains(&DEFAULT_SIZE) => Ok(DEFAULT_SIZE),
        None => Err(SgfError::NoSize { smallest, largest }),
        Some(Prop::SZ((columns, rows))) if columns != rows => Err(SgfError::Rectangular {
            columns: *columns,
            rows: *rows,
        }),
        Some(Prop::SZ((size, _))) if allowed.contains(&usize::from(*size)) => {
            Ok(usize::from(*size))
        }
        Some(Prop::SZ((size, _))) => Err(SgfError::SizeOutOfRange {
            size: usize::from(*size),
            smallest,
            largest,
        }),
        Some(other) => Err(bad_value(1, "SZ", other)),
    }
}

/// The points of the first node's `AB` or `AW`, in index order.
fn setup_points(
    root: &SgfNode<Prop>,
    property: &'static str,
    size: usize,
) -> Result<Vec<Point>, SgfError> {
    let listed = match root.get_property(property) {
        None => return Ok(Vec::new()),
        Some(Prop::AB(points) | Prop::AW(points)) => points,
        Some(other) => return Err(bad_value(1, property, other)),
    };
    // sgf-parse gives a set: sort it, so the first point off the board is always
    // the same one.
    let mut listed: Vec<sgf_parse::go::Point> = listed.iter().copied().collect();
    listed.sort_by_key(|p| (p.y, p.x));
    listed
        .into_iter()
        .map(|p| {
            board_point(p, size).ok_or_else(|| SgfError::OffBoard {
                node: 1,
                property,
                point: sgf_point_text(p),
                size,
            })
        })
        .collect()
}

/// The move of a node, if it has one: `B[dd]`, or a pass as `B[]` (or `B[tt]` on
/// boards up to 19x19).
fn node_move(
    node: usize,
    content: &SgfNode<Prop>,
    size: usize,
) -> Result<Option<PlayedMove>, SgfError> {
    for prop in content.properties() {
        let (colour, property, value) = match prop {
            Prop::B(value) => (Colour::Black, "B", value),
            Prop::W(value) => (Colour::White, "W", value),
            Prop::Invalid(identifier, _) if identifier == "B" => {
                return Err(bad_value(node, "B", prop));
            }
            Prop::Invalid(identifier, _) if identifier == "W" => {
                return Err(bad_value(node, "W", prop));
            }
            _ => continue,
        };
        let mv = match *value {
            sgf_parse::go::Move::Pass => Move::Pass,
            sgf_parse::go::Move::Move(p) if is_old_pass(p, size) => Move::Pass,
            sgf_parse::go::Move::Move(p) => match board_point(p, size) {
                Some(point) => Move::Play(point),
                None => {
                    return Err(SgfError::OffBoard {
                        node,
                        property,
                        point: sgf_point_text(p),
                        size,
                    });
                }
            },
        };
        return Ok(Some(PlayedMove { colour, mv }));
    }
    Ok(None)
}

/// The refusal of a property whose value sgf-parse could not read (or that is not
/// the kind expected).
fn bad_value(node: usize, property: &'static str, prop: &Prop) -> SgfError {
    SgfError::BadValue {
        node,
        property,
        text: quoted(&prop.to_string()),
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
