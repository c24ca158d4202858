//! Cross-check against GNU Go: random games replayed through GTP, comparing the
//! stones after every move and the legality of sampled points; and our SGF records,
//! with and without setup stones (`AB`, `AW`, `PL`), loaded in GNU Go (`loadsgf`) to
//! the same stones and the same colour to move.
//!
//! The board the Bkgo room sends (`Board:` ... `EOF`) is checked the same way.
//!
//! GNU Go must be installed (`make test` installs it when it can): its absence is a
//! failure that says how to install it, never a silent pass. Only an explicit
//! `GOSERVER_SKIP_GNUGO=1` skips these tests, saying so.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::SystemTime;

use goserver::engine::go::{Colour, Game, IllegalMove, Move, Point, Rules, Setup, SetupError};
use goserver::engine::sgf::{RecordInfo, write};

mod common;

/// A running `gnugo --mode gtp`.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// Sends one command and returns the answer without `= `, or the error text.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("write to gnugo");
        self.input.flush().expect("flush to gnugo");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read from gnugo");
            assert!(n > 0, "gnugo closed its output after {command:?}");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim();
        match answer.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_string()),
            None => Err(answer.to_string()),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// `gnugo` from PATH, or the Debian location `/usr/games/gnugo`.
fn find_gnugo() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
}

fn letter(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "B",
        Colour::White => "W",
    }
}

fn our_stones(game: &Game, colour: Colour) -> BTreeSet<String> {
    let size = game.size();
    (0..size * size)
        .filter_map(|i| Point::from_index(i as i64, size))
        .filter(|&p| game.board().get(p) == Some(colour))
        .map(|p| p.vertex(size))
        .collect()
}

/// xorshift64*: the same games on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }

    fn point(&mut self, size: usize) -> Point {
        Point::new(self.below(size) as u8, self.below(size) as u8)
    }

    fn colour(&mut self) -> Colour {
        if self.below(2) == 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }
}

/// A GTP session with GNU Go under our default rules; `None` (after saying so) only
/// when `GOSERVER_SKIP_GNUGO=1` asks to skip.
///
/// # Panics
///
/// When gnugo is missing and no skip was asked for.
fn start_gnugo() -> Option<Gtp> {
    if std::env::var("GOSERVER_SKIP_GNUGO").as_deref() == Ok("1") {
        println!("skipped: GOSERVER_SKIP_GNUGO=1");
        return None;
    }
    let Some(gnugo) = find_gnugo() else {
        panic!(
            "gnugo is not installed: run `apt-get install gnugo` (or `make test`, which installs it as root), or set GOSERVER_SKIP_GNUGO=1 to skip the GNU Go cross-checks"
        );
    };
    let mut child = Command::new(gnugo)
        .args([
            "--mode",
            "gtp",
            "--chinese-rules",
            "--positional-superko",
            "--forbid-suicide",
            "--level",
            "0",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gnugo");
    let input = child.stdin.take().expect("piped stdin");
    let output = BufReader::new(child.stdout.take().expect("piped stdout"));
    Some(Gtp {
        child,
        input,
        output,
    })
}

#[test]
fn random_games_agree_with_gnugo() {
    let Some(mut gtp) = start_gnugo() else { return };
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let (mut moves, mut compared) = (0, 0);
    for (size, games) in [(5, 80), (7, 60), (9, 50), (13, 12), (19, 6)] {
        gtp.ask(&format!("boardsize {size}")).expect("boardsize");
        for _ in 0..games {
            gtp.ask("clear_board").expect("clear_board");
            let mut game = Game::new(size, Rules::default()).expect("valid size");
            while !game.is_over() && game.moves().len() < 2 * size * size {
                let colour = game.to_move();
                // Sample some points and compare legality (GNU Go's is_legal knows
                // simple ko but not superko, so superko verdicts are not compared).
                for _ in 0..4 {
                    let p = Point::new(rng.below(size) as u8, rng.below(size) as u8);
                    let ours = game.check(colour, Move::Play(p));
                    if matches!(ours, Err(IllegalMove::Superko { .. })) {
                        continue;
                    }
                    let theirs = gtp
                        .ask(&format!("is_legal {} {}", letter(colour), p.vertex(size)))
                        .expect("is_legal");
                    assert_eq!(
                        ours.is_ok(),
                        theirs == "1",
                        "is_legal {colour} {} on\n{}",
                        p.vertex(size),
                        game.board()
                    );
                    compared += 1;
                }
                // A random legal move (or a pass now and then).
                let mut mv = Move::Pass;
                if rng.below(30) != 0 {
                    for _ in 0..4 * size * size {
                        let p = Point::new(rng.below(size) as u8, rng.below(size) as u8);
                        if game.check(colour, Move::Play(p)).is_ok() {
                            mv = Move::Play(p);
                            break;
                        }
                    }
                }
                game.play(colour, mv).expect("a checked move is legal");
                let vertex = match mv {
                    Move::Play(p) => p.vertex(size),
                    Move::Pass => "pass".to_string(),
                };
                gtp.ask(&format!("play {} {vertex}", letter(colour)))
                    .unwrap_or_else(|e| {
                        panic!("gnugo refused {colour} {vertex}: {e}\n{}", game.board())
                    });
                moves += 1;
                for c in [Colour::Black, Colour::White] {
                    let listed = gtp.ask(&format!("list_stones {}", c)).expect("list_stones");
                    let theirs: BTreeSet<String> =
                        listed.split_whitespace().map(str::to_string).collect();
                    assert_eq!(
                        our_stones(&game, c),
                        theirs,
                        "{c} stones after {vertex} differ on\n{}",
                        game.board()
                    );
                }
            }
        }
    }
    println!("gnugo agreed on {moves} moves and {compared} legality checks");
}

/// Up to `moves` random legal moves (occupied, suicide and ko tries are skipped).
fn play_randomly(rng: &mut Rng, game: &mut Game, moves: usize) {
    let size = game.size();
    for _ in 0..moves {
        let colour = game.to_move();
        let _ = game.play(colour, Move::Play(rng.point(size)));
    }
}

/// A random setup that the engine accepts (chains without liberties are taken off).
fn random_setup(rng: &mut Rng, size: usize) -> Game {
    let mut setup = Setup {
        black: Vec::new(),
        white: Vec::new(),
        to_move: rng.colour(),
    };
    for _ in 0..rng.below(size * size / 2 + 1) {
        let p = rng.point(size);
        if !setup.black.contains(&p) && !setup.white.contains(&p) {
            match rng.colour() {
                Colour::Black => setup.black.push(p),
                Colour::White => setup.white.push(p),
            }
        }
    }
    loop {
        match Game::from_setup(size, Rules::default(), &setup) {
            Ok(game) => return game,
            Err(SetupError::NoLiberties { stones, .. }) => {
                setup.black.retain(|p| !stones.contains(p));
                setup.white.retain(|p| !stones.contains(p));
            }
            Err(other) => panic!("random setup refused: {other}"),
        }
    }
}

/// Writes `game`'s record, loads it in GNU Go and compares the stones and the colour
/// to move.
fn assert_gnugo_agrees(gtp: &mut Gtp, game: &Game, name: &str) {
    let info = RecordInfo {
        black: "Ann",
        white: "Bob [2]",
        result: "",
        started: SystemTime::now(),
    };
    assert_gnugo_loads(gtp, &write(game, &info), game, name);
}

/// Loads the SGF `text` in GNU Go and compares its stones and colour to move with
/// `game`'s.
fn assert_gnugo_loads(gtp: &mut Gtp, text: &str, game: &Game, name: &str) {
    let file =
        std::env::temp_dir().join(format!("goserver-gnugo-{}-{name}.sgf", std::process::id()));
    std::fs::write(&file, text).expect("write the record");
    let to_move = gtp
        .ask(&format!("loadsgf {}", file.display()))
        .unwrap_or_else(|e| panic!("gnugo cannot load our record: {e}\n{text}"));
    let _ = std::fs::remove_file(&file);
    assert_eq!(
        to_move,
        game.to_move().to_string(),
        "{name}: colour to move\n{text}"
    );
    for colour in [Colour::Black, Colour::White] {
        let theirs: BTreeSet<String> = gtp
            .ask(&format!("list_stones {}", letter(colour)))
            .expect("list_stones")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert_eq!(theirs, our_stones(game, colour), "{name}: {colour}\n{text}");
    }
}

#[test]
fn our_sgf_records_load_in_gnugo_with_the_same_position() {
    let Some(mut gtp) = start_gnugo() else { return };
    let mut rng = Rng(0x5eed_f00d_5afe_ca11);
    for size in [5, 9, 19] {
        let mut game = Game::new(size, Rules::default()).expect("valid size");
        // Random legal moves (captures happen).
        play_randomly(&mut rng, &mut game, 3 * size * size);
        assert_gnugo_agrees(&mut gtp, &game, &format!("{size}x{size}"));
    }
}

#[test]
fn records_with_setup_stones_load_in_gnugo_with_the_same_position() {
    let Some(mut gtp) = start_gnugo() else { return };
    let mut rng = Rng(0xab5e_7b00_c0de_0042);
    let mut checked = [0usize; 2];
    for size in [2, 5, 9, 13, 19] {
        for round in 0..8 {
            let mut game = random_setup(&mut rng, size);
            let first = game.to_move();
            // Setup only, then a few moves, then many.
            let moves = [0, 1, 5, size * size][round % 4];
            play_randomly(&mut rng, &mut game, moves);
            assert!(game.setup().is_some());
            assert_gnugo_agrees(&mut gtp, &game, &format!("{size}x{size}-setup-{round}"));
            checked[first.number() as usize - 1] += 1;
        }
    }
    println!("gnugo agreed on {checked:?} setup records (black first, white first)");
    // Both colours to move first were exercised.
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

#[test]
fn the_board_the_bkgo_room_sends_loads_in_gnugo_with_the_same_position() {
    use common::{Client, TestServer};
    use goserver::server::Protocol;
    use goserver::settings::{BkgoSettings, Settings};
    let Some(mut gtp) = start_gnugo() else { return };
    let size = 9;
    let settings = Settings {
        bkgo: BkgoSettings {
            size,
            ..BkgoSettings::default()
        },
        ..Settings::default()
    };
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    let join = |name: &str| {
        let mut client = Client::connect(server.addr_of(Protocol::Bkgo));
        client.expect("BKGO-Server-version-0.6");
        client.ask("BKGO-Client-version-1", "OK");
        client.ask("join", "GimmeGoPlayer");
        client.send(&format!("Player: {name}"));
        client
    };
    // Read a client's lines up to the end of its welcome's board.
    let welcome = |client: &mut Client| {
        let mut sgf = String::new();
        while client.recv() != "Board:" {}
        loop {
            let line = client.recv();
            if line == "EOF" {
                return sgf;
            }
            sgf.push_str(&line);
            sgf.push('\n');
        }
    };
    let mut ann = join("Ann");
    welcome(&mut ann);
    let mut bob = join("Bob");
    welcome(&mut bob);
    while ann.recv() != "WhitePlayer: Bob" {}
    // Random legal moves (captures happen), a pass now and then, played through the
    // room and on our own engine alongside.
    let mut rng = Rng(0xb6_0b0a_4d5e_11fe);
    let mut game = Game::new(size, Rules::default()).expect("9x9");
    for turn in 0..3 * size * size {
        let colour = game.to_move();
        let mover = if colour == Colour::Black {
            &mut ann
        } else {
            &mut bob
        };
        let point = (0..4 * size * size)
            .map(|_| rng.point(size))
            .find(|&p| game.check(colour, Move::Play(p)).is_ok());
        let (line, mv) = match point {
            Some(p) if turn % 17 != 16 => {
                (format!("Place: {}, {}", p.col(), p.row()), Move::Play(p))
            }
            _ => ("Pass".to_string(), Move::Pass),
        };
        game.play(colour, mv).expect("a checked move");
        mover.send(&line);
        ann.expect(&line);
        bob.expect(&line);
        if game.is_over() {
            break;
        }
    }
    assert!(game.captures(Colour::Black) + game.captures(Colour::White) > 0);
    // A watcher's welcome holds the room's board.
    let mut cat = join("Cat");
    let sent = welcome(&mut cat);
    assert_gnugo_loads(&mut gtp, &sent, &game, "bkgo-room");
}
