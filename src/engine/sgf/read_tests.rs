//! Tables of SGF texts: good ones with the position they load to, bad ones with
//! their exact refusal.

use super::*;
use crate::engine::go::{Board, IllegalMove, SetupError};
use sgf_parse::{LexerError, SgfParseError};

/// The position a good text loads to.
struct Want {
    /// The board after every move, as a diagram.
    diagram: &'static str,
    /// Who moves next.
    to_move: Colour,
    /// How many move nodes (passes included).
    moves: usize,
    /// Who moves first after the setup, when the text has one.
    setup: Option<Colour>,
}

fn want(diagram: &'static str, to_move: Colour, moves: usize, setup: Option<Colour>) -> Want {
    Want {
        diagram,
        to_move,
        moves,
        setup,
    }
}

#[test]
fn good_records_and_their_positions() {
    use Colour::{Black, White};
    let cases: &[(&str, Want)] = &[
        (
            "(;FF[4]GM[1]SZ[3];B[aa];W[bb];B[])",
            want("X . .\n. O .\n. . .", White, 3, None),
        ),
        (
            "(;FF[4]SZ[3]AB[aa][ba]AW[cc]PL[W];W[bb])",
            want("X X .\n. O .\n. . O", Black, 1, Some(White)),
        ),
        // A compressed rectangle, no PL and no moves: black to move.
        (
            "(;SZ[4]AB[aa:bb]AW[dd])",
            want("X X . .\nX X . .\n. . . .\n. . . O", Black, 0, Some(Black)),
        ),
        // Without PL, the first move says who starts.
        (
            "(;SZ[5]AB[cc];W[dd])",
            want(
                ". . . . .\n. . . . .\n. . X . .\n. . . O .\n. . . . .",
                Black,
                1,
                Some(White),
            ),
        ),
        // PL alone: an empty board with white to move.
        (
            "(;SZ[2]PL[W];W[aa])",
            want("O .\n. .", Black, 1, Some(White)),
        ),
        // AE in the first node erases nothing from the empty board.
        (
            "(;SZ[2]AB[bb]AE[aa])",
            want(". .\n. X", Black, 0, Some(Black)),
        ),
        // Neither PL nor setup, and white moves first: so be it (as PL[W]).
        (
            "(;FF[4]SZ[2];W[aa];B[bb])",
            want("O .\n. X", White, 2, Some(White)),
        ),
        // tt is a pass on boards up to 19x19; two passes end the game.
        (
            "(;SZ[3];B[tt];W[])",
            want(". . .\n. . .\n. . .", Black, 2, None),
        ),
        // Only the main line counts: the first variation at each branch.
        (
            "(;SZ[3](;B[aa](;W[bb])(;W[zz]))(;B[cc]))",
            want("X . .\n. O .\n. . .", Black, 2, None),
        ),
        // Further game trees are ignored, even another game.
        (
            "(;SZ[2];B[aa])(;GM[2]SZ[99]FOO[bar])",
            want("X .\n. .", White, 1, None),
        ),
        // Whitespace, comments, unknown and unused properties; a move in the first node.
        (
            " \n(;FF[4] GM[1]\nSZ[3]KM[6.5]PB[Ann]C[a \\] b; (c)]B[bb]\n ;W[aa]C[x] KO[]\n;XY[whatever]\n;B[cc] )\n",
            want("O . .\n. X .\n. . X", White, 3, None),
        ),
        // A capture while replaying.
        (
            "(;SZ[3];B[ba];W[aa];B[ab])",
            want(". X .\nX . .\n. . .", White, 3, None),
        ),
        // SZ[n:n] is a square board.
        ("(;SZ[2:2];B[bb])", want(". .\n. X", White, 1, None)),
    ];
    for (text, want) in cases {
        let record = read(text, &ReadLimits::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(record.moves.len(), want.moves, "{text}");
        assert_eq!(
            record.setup.as_ref().map(|s| s.to_move),
            want.setup,
            "{text}"
        );
        let game = record
            .replay(Rules::default())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.board().to_string(), want.diagram, "{text}");
        assert_eq!(game.to_move(), want.to_move, "{text}");
        assert_eq!(game.setup(), record.setup.as_ref(), "{text}");
        assert_eq!(game.moves(), record.moves.as_slice(), "{text}");
        game.debug_check().expect("consistent");
    }
}

#[test]
fn records_read_to_exact_values() {
    let record = read(
        "(;SZ[4]AW[dd]AB[ba:bb][aa]PL[B];B[];W[tt])",
        &ReadLimits::default(),
    )
    .expect("valid");
    let pass = |colour| PlayedMove {
        colour,
        mv: Move::Pass,
    };
    assert_eq!(
        record,
        SgfGame {
            size: 4,
            setup: Some(Setup {
                black: vec![Point::new(0, 0), Point::new(0, 1), Point::new(1, 1)],
                white: vec![Point::new(3, 3)],
                to_move: Colour::Black,
            }),
            moves: vec![pass(Colour::Black), pass(Colour::White)],
        }
    );
    // Without SZ the board is 19x19; tt is a point from 20x20 on.
    let record = read("(;B[sa])", &ReadLimits::default()).expect("valid");
    assert_eq!(record.size, 19);
    assert_eq!(
        record.moves,
        vec![PlayedMove {
            colour: Colour::Black,
            mv: Move::Play(Point::new(0, 18)),
        }]
    );
    let record = read("(;SZ[25];B[tt];W[yy])", &ReadLimits::default()).expect("valid");
    assert_eq!(record.moves[0].mv, Move::Play(Point::new(19, 19)));
    assert_eq!(record.moves[1].mv, Move::Play(Point::new(24, 24)));
    let empty = read("(;)", &ReadLimits::default()).expect("valid");
    assert_eq!(
        empty,
        SgfGame {
            size: 19,
            setup: None,
            moves: vec![]
        }
    );
    let game = empty.replay(Rules::default()).expect("legal");
    assert_eq!(
        game.board().to_string(),
        Board::new(19).expect("19").to_string()
    );
}

#[test]
fn bad_records_and_their_reasons() {
    let point = |row, col| Point::new(row, col);
    let play = |colour, row, col| PlayedMove {
        colour,
        mv: Move::Play(Point::new(row, col)),
    };
    let cases: Vec<(&str, SgfError, &str)> = vec![
        (
            "",
            SgfError::Syntax(SgfParseError::NoGameTrees),
            "SGF syntax: no game tree: a record starts with '(;', like (;FF[4]GM[1]SZ[9])",
        ),
        (
            "hello",
            SgfError::TextBeforeGameTree {
                text: "hello".into(),
            },
            "SGF syntax: text before the game tree (hello): a record starts with '(;', like (;FF[4]GM[1]SZ[9])",
        ),
        (
            " x (;FF[4]SZ[9]AB[aa])",
            SgfError::TextBeforeGameTree { text: "x".into() },
            "SGF syntax: text before the game tree (x): a record starts with '(;', like (;FF[4]GM[1]SZ[9])",
        ),
        (
            "(;SZ[9];B[aa]);W[bb]\n",
            SgfError::TextAfterGameTree {
                text: ";W[bb]".into(),
            },
            "SGF syntax: text after the game tree (;W[bb]): a record ends with the ')' that closes its game tree, and a move is a node inside it, like (;SZ[9];B[dd];W[ee])",
        ),
        (
            "(;B[aa]x)",
            SgfError::Syntax(SgfParseError::LexerError(
                LexerError::MissingPropertyIdentifier,
            )),
            "SGF syntax: text that is no property, or a property name without a value: expected NAME[value], like B[dd]",
        ),
        (
            "(;B[aa]",
            SgfError::Syntax(SgfParseError::UnexpectedEndOfData),
            "SGF syntax: the text ends inside a game tree, or a game tree has no node: every '(' needs a ';' node and a closing ')'",
        ),
        (
            "(;B[aa)",
            SgfError::Syntax(SgfParseError::LexerError(
                LexerError::UnexpectedEndOfPropertyValue,
            )),
            "SGF syntax: a value has no closing ']' (write \\] for a ] inside a value)",
        ),
        (
            "(;B[aa]))",
            SgfError::Syntax(SgfParseError::UnexpectedGameTreeEnd),
            "SGF syntax: a ')' that closes no game tree",
        ),
        (
            "(B[aa])",
            SgfError::Syntax(SgfParseError::UnexpectedProperty),
            "SGF syntax: a property outside a node, or GM twice in the first node: properties follow a ';', like (;FF[4]SZ[9];B[dd])",
        ),
        (
            "((;B[aa]))",
            SgfError::Syntax(SgfParseError::UnexpectedGameTreeStart),
            "SGF syntax: a '(' where a node was expected: a game tree starts with '(;'",
        ),
        (
            "(;b[aa])",
            SgfError::Syntax(SgfParseError::InvalidFF4Property),
            "SGF syntax: property names are upper-case letters written just before their '[' (FF[4]): write B[dd], not b[dd] or Black[dd]",
        ),
        (
            "(;Black[aa])",
            SgfError::Syntax(SgfParseError::InvalidFF4Property),
            "SGF syntax: property names are upper-case letters written just before their '[' (FF[4]): write B[dd], not b[dd] or Black[dd]",
        ),
        (
            "(;B\u{e9}[aa])",
            SgfError::Syntax(SgfParseError::LexerError(
                LexerError::UnexpectedEndOfPropertyIdentifier,
            )),
            "SGF syntax: a property name holds a character that is not ASCII: names are upper-case letters, like AB",
        ),
        (
            "(;GM[go])",
            SgfError::Syntax(SgfParseError::InvalidGameType),
            "SGF syntax: GM must be one number: a Go record has GM[1]",
        ),
        (
            "(;GM[2]SZ[9])",
            SgfError::NotGo { game: 2 },
            "GM[2] is not Go: a Go record has GM[1] (or no GM)",
        ),
        (
            "(;FF[3]SZ[9])",
            SgfError::UnsupportedFormat { version: 3 },
            "FF[3] is not read here: send an FF[4] record (FF[4], or no FF)",
        ),
        (
            "(;FF[5]SZ[9])",
            SgfError::BadValue {
                node: 1,
                property: "FF",
                text: "FF[5]".to_string(),
            },
            "Node 1: FF[5] is not valid: expected FF[4]",
        ),
        (
            "(;SZ[19:13])",
            SgfError::Rectangular {
                columns: 19,
                rows: 13,
            },
            "SZ[19:13]: only square boards are played here: write SZ[n]",
        ),
        (
            "(;SZ[1])",
            SgfError::SizeOutOfRange {
                size: 1,
                smallest: 2,
                largest: 25,
            },
            "SZ[1]: the board size must be from 2 to 25 here",
        ),
        (
            "(;SZ[26])",
            SgfError::SizeOutOfRange {
                size: 26,
                smallest: 2,
                largest: 25,
            },
            "SZ[26]: the board size must be from 2 to 25 here",
        ),
        (
            "(;SZ[300])",
            SgfError::BadValue {
                node: 1,
                property: "SZ",
                text: "SZ[300]".to_string(),
            },
            "Node 1: SZ[300] is not valid: expected one number, like SZ[9]",
        ),
        (
            "(;SZ[nine plus one])",
            SgfError::BadValue {
                node: 1,
                property: "SZ",
                text: "SZ[nine plus one]".to_string(),
            },
            "Node 1: SZ[nine plus one] is not valid: expected one number, like SZ[9]",
        ),
        (
            "(;SZ[1+1])",
            SgfError::BadValue {
                node: 1,
                property: "SZ",
                text: "SZ[1?1]".to_string(),
            },
            "Node 1: SZ[1?1] is not valid: expected one number, like SZ[9]",
        ),
        (
            "(;SZ[9];B[jj])",
            SgfError::OffBoard {
                node: 2,
                property: "B",
                point: "jj".to_string(),
                size: 9,
            },
            "Node 2: B[jj] is off the 9x9 board: coordinates go from a to i",
        ),
        (
            "(;SZ[9]AB[aa][zz][Aa])",
            SgfError::OffBoard {
                node: 1,
                property: "AB",
                point: "Aa".to_string(),
                size: 9,
            },
            "Node 1: AB[Aa] is off the 9x9 board: coordinates go from a to i",
        ),
        (
            "(;AW[tt])",
            SgfError::OffBoard {
                node: 1,
                property: "AW",
                point: "tt".to_string(),
                size: 19,
            },
            "Node 1: AW[tt] is off the 19x19 board: coordinates go from a to s",
        ),
        (
            "(;SZ[9];B[a])",
            SgfError::BadValue {
                node: 2,
                property: "B",
                text: "B[a]".to_string(),
            },
            "Node 2: B[a] is not valid: expected a point like B[dd], or B[] to pass",
        ),
        (
            "(;SZ[9];W[dd][ee])",
            SgfError::BadValue {
                node: 2,
                property: "W",
                text: "W[dd][ee]".to_string(),
            },
            "Node 2: W[dd][ee] is not valid: expected a point like W[dd], or W[] to pass",
        ),
        (
            "(;SZ[9]AB[])",
            SgfError::BadValue {
                node: 1,
                property: "AB",
                text: "AB[]".to_string(),
            },
            "Node 1: AB[] is not valid: expected points like AB[dd][de], or a rectangle like AB[aa:cc]",
        ),
        (
            "(;SZ[9]AW[cc:aa])",
            SgfError::BadValue {
                node: 1,
                property: "AW",
                text: "AW[cc:aa]".to_string(),
            },
            "Node 1: AW[cc:aa] is not valid: expected points like AW[dd][de], or a rectangle like AW[aa:cc]",
        ),
        (
            "(;SZ[9]AB[aa]PL[black])",
            SgfError::BadValue {
                node: 1,
                property: "PL",
                text: "PL[black]".to_string(),
            },
            "Node 1: PL[black] is not valid: expected PL[B] or PL[W]",
        ),
        (
            "(;SZ[9];B[aa]B[bb])",
            SgfError::RepeatedProperty {
                node: 2,
                property: "B",
            },
            "Node 2 has B twice: a property appears once per node",
        ),
        (
            "(;SZ[9]AB[aa]AB[bb])",
            SgfError::RepeatedProperty {
                node: 1,
                property: "AB",
            },
            "Node 1 has AB twice: a property appears once per node",
        ),
        (
            "(;SZ[9];B[aa]W[bb])",
            SgfError::TwoMoves { node: 2 },
            "Node 2 has both B and W: one move per node",
        ),
        (
            "(;SZ[9];B[aa];SZ[9])",
            SgfError::RootProperty {
                node: 3,
                property: "SZ",
            },
            "Node 3: SZ belongs in the first node only",
        ),
        (
            "(;SZ[9];B[aa];AB[cc])",
            SgfError::LateSetup {
                node: 3,
                property: "AB",
            },
            "Node 3: AB (setup) is read in the first node only: play later stones as B or W moves",
        ),
        (
            "(;SZ[9];PL[W])",
            SgfError::LateSetup {
                node: 2,
                property: "PL",
            },
            "Node 2: PL (setup) is read in the first node only: play later stones as B or W moves",
        ),
        (
            "(;SZ[9]AB[aa]B[bb])",
            SgfError::SetupAndMove {
                setup: "AB",
                mv: "B",
            },
            "The first node has both setup (AB) and a move (B): put the move in a node of its own",
        ),
        (
            "(;SZ[9]W[bb]PL[W])",
            SgfError::SetupAndMove {
                setup: "PL",
                mv: "W",
            },
            "The first node has both setup (PL) and a move (W): put the move in a node of its own",
        ),
        // Refused by the engine when replayed.
        (
            "(;SZ[9]AB[aa]AW[aa])",
            SgfError::Setup(SetupError::Twice {
                point: point(0, 0),
                size: 9,
                first: Colour::Black,
                second: Colour::White,
            }),
            "First node: Setup point A9 is given twice: as black and as white",
        ),
        (
            "(;SZ[2]AB[aa]AW[ba][ab])",
            SgfError::Setup(SetupError::NoLiberties {
                colour: Colour::Black,
                stones: vec![point(0, 0)],
                size: 2,
            }),
            "First node: Setup chain without liberties: black A2 (a setup captures nothing: leave every chain a liberty)",
        ),
        (
            "(;SZ[9];B[cc];W[cc])",
            SgfError::Illegal {
                number: 2,
                played: play(Colour::White, 2, 2),
                size: 9,
                reason: IllegalMove::Occupied {
                    point: point(2, 2),
                    size: 9,
                },
            },
            "Move 2 (W[cc] at C7): that point is not empty",
        ),
        (
            "(;SZ[3];B[ba];W[cc];B[ab];W[aa])",
            SgfError::Illegal {
                number: 4,
                played: play(Colour::White, 0, 0),
                size: 3,
                reason: IllegalMove::Suicide {
                    point: point(0, 0),
                    size: 3,
                },
            },
            "Move 4 (W[aa] at A3): suicide: the stone would have no liberties, and the rules here forbid it",
        ),
        (
            "(;SZ[3]AB[ca][bb]AW[ba][ab]PL[B];B[aa];W[ba])",
            SgfError::Illegal {
                number: 2,
                played: play(Colour::White, 0, 1),
                size: 3,
                reason: IllegalMove::Ko {
                    point: point(0, 1),
                    size: 3,
                    colour: Colour::White,
                },
            },
            "Move 2 (W[ba] at B3): ko: white cannot retake at once, play elsewhere first",
        ),
        (
            "(;SZ[9];B[cc];B[dd])",
            SgfError::OutOfTurn {
                number: 2,
                played: play(Colour::Black, 3, 3),
                size: 9,
            },
            "Move 2 (B[dd] at D6): black moves twice in a row, but moves alternate: write a pass W[] between",
        ),
        (
            "(;SZ[9]PL[B];W[cc])",
            SgfError::OutOfTurn {
                number: 1,
                played: play(Colour::White, 2, 2),
                size: 9,
            },
            "Move 1 (W[cc] at C7): black moves first here: start with B, or write PL[W] in the first node",
        ),
        (
            "(;SZ[9];B[];W[];B[aa])",
            SgfError::Illegal {
                number: 3,
                played: play(Colour::Black, 0, 0),
                size: 9,
                reason: IllegalMove::GameOver,
            },
            "Move 3 (B[aa] at A9): the game already ended with two passes in a row: no move may follow them",
        ),
    ];
    for (text, error, message) in cases {
        let got = load(text, &ReadLimits::default(), Rules::default())
            .expect_err(&format!("{text} should be refused"));
        assert_eq!(got, error, "{text}");
        assert_eq!(got.to_string(), message, "{text}");
        assert!(
            !message.contains('+') && !message.contains('\n'),
            "{message}"
        );
    }
}

#[test]
fn limits_of_the_caller() {
    let small = ReadLimits {
        max_bytes: 20,
        sizes: 2..=13,
    };
    let cases = [
        (
            "(;B[aa])",
            SgfError::NoSize {
                smallest: 2,
                largest: 13,
            },
            "No SZ in the first node means 19x19, which is not played here: add SZ[n] with n from 2 to 13",
        ),
        (
            "(;SZ[19])",
            SgfError::SizeOutOfRange {
                size: 19,
                smallest: 2,
                largest: 13,
            },
            "SZ[19]: the board size must be from 2 to 13 here",
        ),
        (
            "(;SZ[9];B[aa];W[bb];B[cc])",
            SgfError::TooLarge {
                bytes: 26,
                limit: 20,
            },
            "SGF too large: 26 bytes, at most 20 are read",
        ),
    ];
    for (text, error, message) in cases {
        let got = read(text, &small).expect_err(text);
        assert_eq!(got, error, "{text}");
        assert_eq!(got.to_string(), message);
    }
    // A range wider than the engine's is narrowed to it.
    let wide = ReadLimits {
        max_bytes: 100,
        sizes: 0..=100,
    };
    assert_eq!(
        read("(;SZ[30])", &wide),
        Err(SgfError::SizeOutOfRange {
            size: 30,
            smallest: 2,
            largest: 25
        })
    );
    assert_eq!(read("(;SZ[25])", &wide).map(|r| r.size), Ok(25));
}

#[test]
fn a_megabyte_is_refused_unread() {
    // Not even SGF: it is refused for its size before anything looks at it.
    let text = "x".repeat(1024 * 1024);
    let got = read(&text, &ReadLimits::default());
    assert_eq!(
        got,
        Err(SgfError::TooLarge {
            bytes: 1_048_576,
            limit: 65_536
        })
    );
    assert_eq!(
        got.map(|_| ()).unwrap_err().to_string(),
        "SGF too large: 1048576 bytes, at most 65536 are read"
    );
}

/// sgf-parse frees its tree recursively: the longest line of nodes that fits the
/// limit, and deep variations, must not overflow any stack.
#[test]
fn deep_trees_do_not_overflow_the_stack() {
    let limits = ReadLimits::default();
    let line = format!("(;{})", ";".repeat(limits.max_bytes - 3));
    assert_eq!(line.len(), limits.max_bytes);
    let record = read(&line, &limits).expect("a long line of empty nodes");
    assert_eq!((record.size, record.moves.len()), (19, 0));
    // The same line without its closing ')': refused (sgf-parse notices before it
    // builds the tree).
    assert_eq!(
        read(&line[..line.len() - 1], &limits),
        Err(SgfError::Syntax(SgfParseError::UnexpectedEndOfData))
    );
    // A deep line that sgf-parse builds and then refuses, freeing it itself.
    let refused = format!("(;{}(()))", ";".repeat(limits.max_bytes - 8));
    assert_eq!(
        read(&refused, &limits),
        Err(SgfError::Syntax(SgfParseError::UnexpectedGameTreeStart))
    );
    // Nested variations, each one node deep.
    let depth = 30_000;
    let nested = format!("(;SZ[2]{})", "(;B[]".repeat(depth) + &")".repeat(depth));
    let wide = ReadLimits {
        max_bytes: 1 << 20,
        ..ReadLimits::default()
    };
    let record = read(&nested, &wide).expect("nested variations");
    assert_eq!(record.moves.len(), depth);
    // Runs on a small stack too, as the server's connection threads have.
    let on_small_stack = thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || read(&line, &limits).map(|r| r.moves.len()))
        .expect("spawn")
        .join()
        .expect("no overflow");
    assert_eq!(on_small_stack, Ok(0));
}
