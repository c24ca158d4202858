//! `echo`: the first floor, an in-process thread-per-connection server that answers
//! every line itself, on the reading thread: no hand-over at all. Driven by the paired
//! ping-pong of floor.rs.

use crate::floor::{self, Answer, Floor, FloorArgs};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener};

/// The `echo` mode: starts the echo server and drives it.
pub(crate) fn echo(args: &FloorArgs) {
    let addr = echo_server(args.reply());
    let floor = Floor {
        mode: "echo",
        answer: Answer::ToSender,
        announce_pair: false,
    };
    floor::drive(floor, addr, args);
}

/// The floor's server: one thread per connection answers each line with `reply`, or
/// with the line itself when `reply` is `None`.
fn echo_server(reply: Option<Vec<u8>>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind echo server");
    let addr = listener.local_addr().expect("echo address");
    std::thread::Builder::new()
        .name("echo-accept".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let reply = reply.clone();
                let _ = stream.set_nodelay(true);
                // Same stack size as goserver's connection threads.
                let _ = std::thread::Builder::new()
                    .stack_size(128 * 1024)
                    .spawn(move || {
                        let Ok(mut writer) = stream.try_clone() else {
                            return;
                        };
                        let mut reader = BufReader::new(stream);
                        let mut line = Vec::with_capacity(128);
                        loop {
                            line.clear();
                            match reader.read_until(b'\n', &mut line) {
                                Ok(0) | Err(_) => return,
                                Ok(_) => {
                                    let answer = reply.as_deref().unwrap_or(&line);
                                    if writer.write_all(answer).is_err() {
                                        return;
                                    }
                                }
                            }
                        }
                    });
            }
        })
        .expect("spawn echo accept");
    addr
}
