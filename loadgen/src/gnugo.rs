//! `gnugo-match`: GNU Go plays the server's practice bot through the GO! protocol.
//!
//! A bridge with GNU Go's GTP on one side and a GO! client on the other. For each
//! game it connects to a running goserver (started with `--bot-after 1`, so the bot
//! takes the free seat of the game it leads), leads a new game with SET_CONFIG and
//! the colour GNU Go is to play (alternating from game to game), starts a fresh
//! `gnugo --mode gtp`, and relays: the bot's ACKNOWLEDGE_MOVE lines become GTP
//! `play`, GNU Go's `genmove` answers become MOVE lines. The game ends as the server
//! ends it (two passes, area scoring); GNU Go's own count (`final_score`, with its
//! judgement of dead stones) is printed beside the server's for comparison.
//!
//! Blocking I/O, one game at a time: the point is the bot's strength at its think
//! time, not load. Ends with one `RESULT key=value ...` line that scripts/bench.sh
//! parses, after one `GAME n ...` line per game.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// What `gnugo-match` is asked to do.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Server address.
    #[arg(long, default_value = "127.0.0.1:8000")]
    pub addr: SocketAddr,
    /// Games to play; GNU Go is black in the odd ones (the first, third, ...).
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// The GNU Go binary.
    #[arg(long, default_value = "/usr/games/gnugo")]
    pub gnugo: PathBuf,
    /// GNU Go's level (0 to 10).
    #[arg(long, default_value_t = 10)]
    pub gnugo_level: u32,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi, as the server was started with (`--komi`): GNU Go is told the same.
    #[arg(long, default_value = "7")]
    pub komi: String,
    /// The server's ko rule (`--ko`): GNU Go is told the same, so that it never tries
    /// a move the server refuses.
    #[arg(long, default_value = "positional")]
    pub ko: String,
    /// Let GNU Go leave dead stones on the board when it passes (by default it
    /// removes them first: `--capture-all-dead`, as area scoring without dead-stone
    /// marking needs).
    #[arg(long)]
    pub keep_dead: bool,
    /// Prefix of the client names (names are <prefix><n>).
    #[arg(long, default_value = "GNUGo")]
    pub prefix: String,
    /// Give up a game after this many seconds without a line from the server.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
}

/// The two colours, as the protocol numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Black = 1,
    White = 2,
}

impl Colour {
    fn gtp(self) -> &'static str {
        match self {
            Colour::Black => "B",
            Colour::White => "W",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

/// How one game ended.
struct Outcome {
    /// The game's id on the server.
    id: u32,
    /// GNU Go's granted name.
    gnugo: String,
    /// The bot's granted name.
    bot: String,
    /// GNU Go's colour.
    colour: Colour,
    /// The server's GAME_FINISHED line.
    finished: String,
    /// The winner's name ("" for a draw).
    winner: String,
    /// Moves played, passes included.
    moves: usize,
    /// GNU Go's own count of the final position (e.g. `W+3.0`).
    gnugo_count: String,
    /// How long the game took.
    took: Duration,
}

/// Plays the match and prints a line per game and the result.
pub fn gnugo_match(args: &MatchArgs) {
    let started = Instant::now();
    let (mut bot_wins, mut gnugo_wins, mut draws, mut errors) = (0u32, 0u32, 0u32, 0u32);
    let mut as_colour = [[0u32; 2]; 2]; // [bot colour black/white][bot won 0/1]
    println!(
        "gnugo-match: {} games on {}x{}, komi {}, GNU Go level {}{} against the server's bot at {}",
        args.games,
        args.size,
        args.size,
        args.komi,
        args.gnugo_level,
        if args.keep_dead {
            ""
        } else {
            " (--capture-all-dead)"
        },
        args.addr
    );
    for n in 1..=args.games {
        let colour = if n % 2 == 1 {
            Colour::Black
        } else {
            Colour::White
        };
        match play_game(args, n, colour) {
            Ok(o) => {
                let bot_won = o.winner == o.bot;
                if bot_won {
                    bot_wins += 1;
                } else if o.winner.is_empty() {
                    draws += 1;
                } else {
                    gnugo_wins += 1;
                }
                let bot_black = usize::from(o.colour == Colour::White);
                as_colour[1 - bot_black][usize::from(bot_won)] += 1;
                println!(
                    "GAME {n} id={} gnugo={} ({}) bot={} ({}) winner={} moves={} secs={:.0} gnugo_count={} | {}",
                    o.id,
                    o.gnugo,
                    o.colour.name(),
                    o.bot,
                    if o.colour == Colour::Black {
                        "white"
                    } else {
                        "black"
                    },
                    if o.winner.is_empty() {
                        "draw"
                    } else {
                        &o.winner
                    },
                    o.moves,
                    o.took.as_secs_f64(),
                    o.gnugo_count,
                    o.finished
                );
            }
            Err(e) => {
                errors += 1;
                println!("GAME {n} error: {e}");
            }
        }
    }
    let played = bot_wins + gnugo_wins + draws;
    let rate = if played > 0 {
        f64::from(bot_wins) / f64::from(played)
    } else {
        0.0
    };
    println!(
        "the bot won {bot_wins} of {played} games ({:.0}%): {} of {} as black, {} of {} as white; GNU Go won {gnugo_wins}, {draws} draws, {errors} errors, in {:.0} s",
        rate * 100.0,
        as_colour[0][1],
        as_colour[0][0] + as_colour[0][1],
        as_colour[1][1],
        as_colour[1][0] + as_colour[1][1],
        started.elapsed().as_secs_f64()
    );
    println!(
        "RESULT mode=gnugo-match games={played} bot_wins={bot_wins} gnugo_wins={gnugo_wins} draws={draws} errors={errors} win_rate={rate:.3} secs={:.0}",
        started.elapsed().as_secs_f64()
    );
}

/// A running `gnugo --mode gtp`.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// Starts GNU Go for one game under the match's rules and sets up the board.
    fn start(args: &MatchArgs) -> io::Result<Gtp> {
        let ko = match args.ko.as_str() {
            "simple" => "--simple-ko",
            "situational" => "--situational-superko",
            _ => "--positional-superko",
        };
        let mut command = Command::new(&args.gnugo);
        command
            .args(["--mode", "gtp", "--chinese-rules", "--komi", &args.komi])
            .args(["--level", &args.gnugo_level.to_string(), ko]);
        if !args.keep_dead {
            command.arg("--capture-all-dead");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let output = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let mut gtp = Gtp {
            child,
            input,
            output: BufReader::new(output),
        };
        gtp.ask(&format!("boardsize {}", args.size))?;
        gtp.ask("clear_board")?;
        gtp.ask(&format!("komi {}", args.komi))?;
        Ok(gtp)
    }

    /// Sends one command; returns the answer without `= `.
    fn ask(&mut self, command: &str) -> io::Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                return Err(io::Error::other(format!(
                    "gnugo closed its output after {command:?}"
                )));
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim();
        match answer.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_string()),
            None => Err(io::Error::other(format!(
                "gnugo refused {command:?}: {answer}"
            ))),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// The GO! side: lines in and out.
struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Client {
    fn connect(args: &MatchArgs) -> io::Result<Client> {
        let stream = TcpStream::connect(args.addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(args.timeout)))?;
        stream.set_nodelay(true)?;
        Ok(Client {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        self.writer.write_all(format!("{line}\n").as_bytes())
    }

    fn recv(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(io::Error::other("the server closed the connection"));
        }
        Ok(line.trim_end().to_string())
    }

    /// The next line, which must start with `prefix`.
    fn expect(&mut self, prefix: &str) -> io::Result<String> {
        let line = self.recv()?;
        if line.starts_with(prefix) {
            Ok(line)
        } else {
            Err(io::Error::other(format!(
                "expected {prefix}..., got {line:?}"
            )))
        }
    }
}

/// Plays game `n`, GNU Go as `colour`.
fn play_game(args: &MatchArgs, n: u32, colour: Colour) -> io::Result<Outcome> {
    let started = Instant::now();
    let size = args.size;
    let mut client = Client::connect(args)?;
    client.send(&format!("HANDSHAKE+{}{n}", args.prefix))?;
    let hello = client.expect("ACKNOWLEDGE_HANDSHAKE+")?;
    let fields: Vec<&str> = hello.split('+').collect();
    let id: u32 = fields
        .get(1)
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| io::Error::other(format!("no game id in {hello:?}")))?;
    if fields.get(2) != Some(&"1") {
        return Err(io::Error::other(format!(
            "joined someone else's game ({hello:?}): is another client waiting?"
        )));
    }
    client.expect("REQUEST_CONFIG+")?;
    client.send(&format!("SET_CONFIG+{id}+{}+{size}", colour as u8))?;
    // The bot takes the free seat after the server's --bot-after.
    let config = client.expect("ACKNOWLEDGE_CONFIG+")?;
    let fields: Vec<&str> = config.split('+').collect();
    let (name, bot) = match (fields.get(1), fields.get(5)) {
        (Some(name), Some(bot)) => (name.to_string(), bot.to_string()),
        _ => return Err(io::Error::other(format!("a short config: {config:?}"))),
    };
    let mut gtp = Gtp::start(args)?;
    let mut to_move = Colour::Black;
    let mut moves = 0;
    let finished = loop {
        if to_move == colour {
            let vertex = gtp.ask(&format!("genmove {}", colour.gtp()))?;
            if vertex.eq_ignore_ascii_case("resign") {
                client.send(&format!("EXIT+{id}+{name}"))?;
                break client.expect("GAME_FINISHED+")?;
            }
            let index = index_of(&vertex, size)
                .ok_or_else(|| io::Error::other(format!("GNU Go played {vertex:?}")))?;
            client.send(&format!("MOVE+{id}+{name}+{index}"))?;
        }
        let line = client.recv()?;
        if line.starts_with("GAME_FINISHED+") {
            break line;
        }
        if line.starts_with("INVALID_MOVE+") {
            return Err(io::Error::other(format!(
                "the server refused GNU Go's move: {line}"
            )));
        }
        let Some((index, mover, state)) = parse_ack(&line) else {
            return Err(io::Error::other(format!("unexpected line {line:?}")));
        };
        moves += 1;
        if mover != colour {
            let vertex = vertex_of(index, size);
            gtp.ask(&format!("play {} {vertex}", mover.gtp()))?;
        }
        if state.starts_with("FINISHED") {
            break client.expect("GAME_FINISHED+")?;
        }
        to_move = if mover == Colour::Black {
            Colour::White
        } else {
            Colour::Black
        };
    };
    let gnugo_count = gtp.ask("final_score").unwrap_or_else(|e| e.to_string());
    // After two passes the server asks for a rematch; an EXIT ends the game at once.
    if client.recv().is_ok_and(|l| l == "REQUEST_REMATCH") {
        client.send("SET_REMATCH+0")?;
        let _ = client.recv();
    }
    let winner = finished.split('+').nth(2).unwrap_or_default().to_string();
    Ok(Outcome {
        id,
        gnugo: name,
        bot,
        colour,
        finished,
        winner,
        moves,
        gnugo_count,
        took: started.elapsed(),
    })
}

/// The index, mover and state of an `ACKNOWLEDGE_MOVE+id+index;colour+state` line.
fn parse_ack(line: &str) -> Option<(i64, Colour, &str)> {
    let mut fields = line.split('+');
    if fields.next()? != "ACKNOWLEDGE_MOVE" {
        return None;
    }
    let _id = fields.next()?;
    let (index, colour) = fields.next()?.split_once(';')?;
    let state = fields.next()?;
    let colour = match colour {
        "1" => Colour::Black,
        "2" => Colour::White,
        _ => return None,
    };
    Some((index.parse().ok()?, colour, state))
}

/// GTP's column letters: `I` is skipped.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The GTP vertex of a protocol index (row 0 is the top row; GTP counts rows from
/// the bottom); `-1` is a pass.
fn vertex_of(index: i64, size: usize) -> String {
    if index < 0 {
        return "pass".to_string();
    }
    let index = index as usize;
    let (row, col) = (index / size, index % size);
    format!("{}{}", char::from(COLUMNS[col]), size - row)
}

/// The protocol index of a GTP vertex (`pass` is -1).
fn index_of(vertex: &str, size: usize) -> Option<i64> {
    if vertex.eq_ignore_ascii_case("pass") {
        return Some(-1);
    }
    let upper = vertex.to_ascii_uppercase();
    let (letter, number) = upper.split_at(1);
    let col = COLUMNS.iter().position(|&c| c == letter.as_bytes()[0])?;
    let from_bottom: usize = number.parse().ok()?;
    if col >= size || from_bottom == 0 || from_bottom > size {
        return None;
    }
    Some(((size - from_bottom) * size + col) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_and_indexes() {
        assert_eq!(vertex_of(0, 9), "A9");
        assert_eq!(vertex_of(80, 9), "J1");
        assert_eq!(vertex_of(-1, 9), "pass");
        for index in 0..81 {
            assert_eq!(index_of(&vertex_of(index, 9), 9), Some(index));
        }
        assert_eq!(index_of("PASS", 9), Some(-1));
        assert_eq!(index_of("k5", 9), None);
        assert_eq!(index_of("A10", 9), None);
    }

    #[test]
    fn acknowledgements() {
        let line = "ACKNOWLEDGE_MOVE+3+40;1+PLAYING;2;000";
        assert_eq!(parse_ack(line), Some((40, Colour::Black, "PLAYING;2;000")));
        assert_eq!(
            parse_ack("ACKNOWLEDGE_MOVE+3+-1;2+FINISHED;1;000"),
            Some((-1, Colour::White, "FINISHED;1;000"))
        );
        assert_eq!(parse_ack("GAME_FINISHED+3+x+1;2+done"), None);
    }
}
