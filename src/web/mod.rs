//! The live web board: every game of every front end on a lab's projector, read-only,
//! in any browser. A view over the front ends, like the console: it reads what the game
//! loops publish (`live`), and no front end knows it.
//!
//! The same blocking shape as the rest of the server: the listener hands each
//! connection to a thread of its own (`net::listener`), at most `--max-web-clients` at
//! once; a thread reads a request head within its bounds (`http`), answers it from the
//! live board, and goes on to the next request of the connection, or, for an event
//! stream, stays to write the game's changes (`stream`). Every write goes through the
//! connection's non-blocking, bounded outbox: a browser that stops reading is dropped
//! like any client, and never slows a game.
//!
//! - [`http`]: request heads in, responses out.
//! - [`routes`]: a path matched once into what it asks for.
//! - [`stream`]: server-sent events.
//! - [`standings`], [`cards`]: the tournament's and the report cards' JSON.
//! - [`assets`]: the embedded pages, stylesheet and scripts.

pub mod assets;
pub mod cards;
pub mod http;
pub mod routes;
pub mod standings;
pub mod stream;

use crate::html::escape as escape_html;
use crate::live::{Detail, Front, GameKey, Snapshot};
use crate::net::{
    AcceptLimits, AcceptThread, CloseReason, ConnId, Connection, OUTPUT_STALL_TIMEOUT,
};
use crate::server::Server;
use assets::{CLIENT_PAGE, CLIENTS_PAGE, GAME_PAGE, NOT_FOUND_PAGE, OVERVIEW_PAGE, STANDINGS_PAGE};
use http::{Method, Next, Request, RequestReader, Response};
use parking_lot::Mutex;
use routes::{CardKey, Route};
use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use stream::Stream;

/// The web board of a server.
pub struct Web {
    server: Arc<Server>,
    /// Every open web connection, to close them at shutdown.
    open: Mutex<HashMap<ConnId, Arc<Connection>>>,
    /// Connections open now (the listener's count, for `--max-web-clients`).
    clients: Arc<AtomicUsize>,
    accept: Mutex<Option<AcceptThread>>,
    /// The tournament's JSON, written once per new result.
    standings: standings::Cache,
    /// The report cards' list, written once per change.
    cards: cards::Cache,
}

/// What a request gets.
enum Answer {
    /// A response, then the next request.
    Response(Response),
    /// An event stream, until the viewer leaves.
    Overview,
    Game(GameKey),
    Standings,
    Clients,
    Client(CardKey),
}

impl Web {
    /// Serves the web board of `server` on `listener`, from now until [`Web::stop`].
    /// Its info line (`listening on ... (web)`) follows the front ends' lines.
    ///
    /// # Errors
    ///
    /// When the listener's address cannot be read or a thread cannot start.
    pub fn start(server: &Arc<Server>, listener: TcpListener) -> io::Result<Arc<Web>> {
        let address = listener.local_addr()?;
        let max = server.settings.max_web_clients;
        let web = Arc::new(Web {
            server: Arc::clone(server),
            open: Mutex::new(HashMap::new()),
            clients: Arc::new(AtomicUsize::new(0)),
            accept: Mutex::new(None),
            standings: standings::Cache::default(),
            cards: cards::Cache::default(),
        });
        let limits = AcceptLimits {
            max_clients: max,
            refusal: refusal(max),
        };
        let serving: Weak<Web> = Arc::downgrade(&web);
        let accept = AcceptThread::spawn(
            "accept-web",
            listener,
            limits,
            Arc::clone(&web.clients),
            Arc::clone(&server.connection_threads),
            move |stream, peer| {
                if let Some(web) = serving.upgrade() {
                    web.serve(stream, peer);
                }
            },
        )?;
        *web.accept.lock() = Some(accept);
        let _ = server.web_address.set(address);
        log::info!("listening on {address} (web)");
        Ok(web)
    }

    /// Web connections open now.
    pub fn clients(&self) -> usize {
        self.clients.load(Ordering::SeqCst)
    }

    /// Stops accepting, closes every web connection (their threads end), and waits
    /// for them until `deadline`.
    pub fn stop(&self, deadline: Instant) {
        let accept = self.accept.lock().take();
        if let Some(accept) = accept {
            accept.stop(deadline);
        }
        let open: Vec<Arc<Connection>> = self.open.lock().values().cloned().collect();
        for conn in open {
            conn.close(CloseReason::ShuttingDown);
        }
        while self.clients() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Serves one connection: its requests in turn, or one event stream.
    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        let conn = match self.server.connections.open(stream, peer) {
            Ok(conn) => conn,
            Err(e) => {
                log::debug!("web {peer}: cannot set up the connection: {e}");
                return;
            }
        };
        // Out of `open` and closed when its serving ends, however it ends.
        let _serving = Serving::new(&self.open, &conn);
        let mut reader =
            RequestReader::new(conn.connected_at, self.server.settings.web_head_timeout);
        loop {
            let request = match reader.next(&conn) {
                Next::Request(request) => request,
                Next::Refused(response) => {
                    log::debug!("web {}: refused: {}", conn.label(), response.status);
                    response.send(&conn, false, false);
                    break;
                }
                Next::Ended => break,
            };
            log::debug!(
                "web {}: {:?} {}",
                conn.label(),
                request.method,
                request.path
            );
            let head_only = request.method == Method::Head;
            match self.answer(&request) {
                Answer::Response(response) => {
                    response.send(&conn, head_only, request.keep_alive);
                    if !request.keep_alive {
                        break;
                    }
                }
                Answer::Overview
                | Answer::Game(_)
                | Answer::Standings
                | Answer::Clients
                | Answer::Client(_)
                    if head_only =>
                {
                    Stream::new(&conn, &self.server.live, &self.server.shutdown).head();
                    break;
                }
                Answer::Overview => {
                    self.stream(&conn, &request, |s| s.overview());
                    break;
                }
                Answer::Game(key) => {
                    self.stream(&conn, &request, |s| s.game(key));
                    break;
                }
                Answer::Standings => {
                    self.stream(&conn, &request, |s| {
                        s.standings(&self.server.results, &self.standings);
                    });
                    break;
                }
                Answer::Clients => {
                    self.stream(&conn, &request, |s| {
                        s.clients(&self.server.cards, &self.cards)
                    });
                    break;
                }
                Answer::Client(key) => {
                    self.stream(&conn, &request, |s| {
                        s.client(&self.server.cards, key.front, &key.name);
                    });
                    break;
                }
            }
            if self.server.shutdown.is_triggered() {
                break;
            }
        }
    }

    /// Runs an event stream on `conn`, logging the viewer's arrival and departure.
    fn stream(&self, conn: &Connection, request: &Request, run: impl FnOnce(&Stream<'_>)) {
        log::info!("web viewer {} opened {}", conn.label(), request.path);
        run(&Stream::new(conn, &self.server.live, &self.server.shutdown));
        let why = conn
            .close_reason()
            .map_or_else(|| "it left".to_string(), |r| r.to_string());
        log::info!("web viewer {} closed {}: {why}", conn.label(), request.path);
    }

    /// The answer to `request`.
    fn answer(&self, request: &Request) -> Answer {
        if let Method::Other(method) = &request.method {
            let refusal = Response::text(
                405,
                &format!("{method} is not allowed: this board is read-only (GET, HEAD)"),
            );
            return Answer::Response(refusal.with_header("Allow", "GET, HEAD"));
        }
        let path = &request.path;
        let Some(route) = Route::of(path) else {
            return Answer::Response(not_found(path, "no such page"));
        };
        let live = &self.server.live;
        // A game route names a game the board shows, or nothing.
        let shown = |key: GameKey| {
            live.game(key)
                .ok_or_else(|| not_found(path, "no such game"))
        };
        let response = match route {
            Route::Overview => Response::new(200, "text/html; charset=utf-8", OVERVIEW_PAGE),
            Route::Health => Response::new(200, "text/plain; charset=utf-8", "ok"),
            Route::Asset(asset) => {
                let (content_type, text) = asset.file();
                Response::new(200, content_type, text)
            }
            Route::Games => Response::json(200, &games_json(&live.games())),
            Route::Game(key) => match shown(key) {
                Ok(game) => Response::json(200, &game.state_json()),
                Err(refusal) => refusal,
            },
            Route::GamePage(key) => match shown(key) {
                Ok(game) => {
                    let page = GAME_PAGE.replace("{{title}}", &escape_html(&title(&game)));
                    Response::new(200, "text/html; charset=utf-8", page)
                }
                Err(refusal) => refusal,
            },
            Route::Sgf(key) => match shown(key) {
                Ok(game) => self.sgf(path, &game),
                Err(refusal) => refusal,
            },
            Route::Events => return Answer::Overview,
            Route::StandingsEvents => return Answer::Standings,
            Route::StandingsPage => Response::new(200, "text/html; charset=utf-8", STANDINGS_PAGE),
            Route::Standings => {
                Response::json(200, &self.standings.get(&self.server.results).standings)
            }
            Route::Crosstable => {
                Response::json(200, &self.standings.get(&self.server.results).crosstable)
            }
            Route::Results => {
                match standings::recent(&self.server.results, request.query.as_deref()) {
                    Ok(json) => Response::json(200, &json),
                    Err(error) => Response::json(400, &error),
                }
            }

            Route::GameEvents(key) => match shown(key) {
                Ok(_) => return Answer::Game(key),
                Err(refusal) => refusal,
            },
            Route::ClientsPage => Response::new(200, "text/html; charset=utf-8", CLIENTS_PAGE),
            Route::Clients => Response::json(200, &self.cards.list(&self.server.cards).1),
            Route::ClientsCsv => Response::new(
                200,
                "text/csv; charset=utf-8",
                cards::csv(&self.server.cards.rows()),
            )
            .with_header(
                "Content-Disposition",
                "attachment; filename=\"goserver-report-cards.csv\"",
            ),
            Route::ClientsEvents => return Answer::Clients,
            Route::ClientPage(key) | Route::Client(key) | Route::ClientEvents(key)
                if self.server.cards.find(key.front, &key.name).is_none() =>
            {
                not_found(path, "no report card")
            }
            Route::ClientPage(key) => {
                let title = format!("{} ({})", key.name, key.front.name());
                let page = CLIENT_PAGE.replace("{{title}}", &escape_html(&title));
                Response::new(200, "text/html; charset=utf-8", page)
            }
            Route::Client(key) => match self.server.cards.find(key.front, &key.name) {
                Some(card) => Response::json(200, &cards::card_json(&card.view())),
                None => not_found(path, "no report card"),
            },
            Route::ClientEvents(key) => return Answer::Client(key),
        };
        Answer::Response(response)
    }

    /// A Go game's SGF as far as it has been played (the console's `sgf` shows the
    /// same): written from what its loop published, its record's move log, never by
    /// asking the loop.
    fn sgf(&self, path: &str, game: &Snapshot) -> Response {
        let Detail::Go(board) = &game.detail else {
            return not_found(path, "Spectrangle games have no SGF");
        };
        let Some(record) = &board.record else {
            return not_found(
                path,
                "the game has no record yet: it starts once it is configured",
            );
        };
        if let Some(text) = record.finished.get() {
            return Response::new(200, SGF_TYPE, text.to_string());
        }
        let Some(position) = record.replay() else {
            log::error!("web: {path}: the game's moves do not replay (a bug)");
            return Response::text(500, "the game's record cannot be written");
        };
        let name = |colour: u8| {
            game.summary
                .players
                .iter()
                .find(|p| p.colour == Some(colour))
                .map_or("", |p| p.name.as_str())
        };
        let text = crate::engine::sgf::write(
            &position,
            &crate::engine::sgf::RecordInfo {
                black: name(1),
                white: name(2),
                result: "",
                started: record.started,
            },
        );
        Response::new(200, SGF_TYPE, text)
    }
}

/// How an SGF record is served.
const SGF_TYPE: &str = "application/x-go-sgf";

/// The line a browser gets when the board is full, before the connection closes (the
/// listener adds a line end, which the length counts).
fn refusal(max: usize) -> String {
    let body = format!("the web board is full ({max} connections): try again later");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n{}Connection: close\r\n\r\n{body}",
        body.len() + 1,
        http::SECURITY_HEADERS
    )
}

/// 404: an HTML page for a browser's path, JSON under `/api/`.
fn not_found(path: &str, why: &str) -> Response {
    if Route::wants_json(path) {
        let error = serde_json::json!({ "error": format!("{why}: {path}") });
        Response::json(404, &error.to_string())
    } else {
        let shown: String = path.chars().take(200).collect();
        let page = NOT_FOUND_PAGE.replace("{{path}}", &escape_html(&shown));
        Response::new(404, "text/html; charset=utf-8", page)
    }
}

/// `{"games": [<summary>, ...]}`, each summary's JSON written once and shared.
fn games_json(games: &[Arc<Snapshot>]) -> String {
    let summaries: Vec<Arc<str>> = games.iter().map(|g| g.summary_json()).collect();
    format!("{{\"games\":[{}]}}", summaries.join(","))
}

/// How a game's page is titled: its front end and its players.
fn title(game: &Snapshot) -> String {
    let summary = &game.summary;
    let names: Vec<&str> = summary.players.iter().map(|p| p.name.as_str()).collect();
    let (front, id) = match summary.front {
        Front::Go => ("GO! game", summary.id.to_string()),
        Front::Spectrangle => ("Spectrangle game", format!("s{}", summary.id)),
        Front::Bkgo => ("Bkgo room", String::new()),
    };
    let players = match (summary.front, names.as_slice()) {
        (_, []) => "waiting for players".to_string(),
        (Front::Go | Front::Bkgo, [black, white]) => format!("{black} vs {white}"),
        (_, names) => names.join(", "),
    };
    let name = if id.is_empty() {
        front.to_string()
    } else {
        format!("{front} {id}")
    };
    format!("{name}: {players}")
}

/// Closes `conn` once what it was sent has left, or the outbox gave up on it.
/// A web connection being served: listed in `open` (for the shutdown) while it is;
/// when its serving ends, however it ends (a bug's panic too), its output is let out,
/// it is closed and taken off the list. Its `--max-web-clients` place is the
/// listener's, given back when the thread's job ends.
struct Serving<'a> {
    open: &'a Mutex<HashMap<ConnId, Arc<Connection>>>,
    conn: Arc<Connection>,
}

impl<'a> Serving<'a> {
    fn new(
        open: &'a Mutex<HashMap<ConnId, Arc<Connection>>>,
        conn: &Arc<Connection>,
    ) -> Serving<'a> {
        open.lock().insert(conn.id, Arc::clone(conn));
        Serving {
            open,
            conn: Arc::clone(conn),
        }
    }
}

impl Drop for Serving<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            log::error!(
                "web {}: a bug ended its serving: closing it",
                self.conn.label()
            );
            self.conn
                .close(CloseReason::Because("internal error".into()));
        } else {
            close_when_sent(&self.conn);
        }
        self.open.lock().remove(&self.conn.id);
    }
}

fn close_when_sent(conn: &Connection) {
    let deadline = Instant::now() + OUTPUT_STALL_TIMEOUT;
    while conn.has_queued_output() && !conn.is_closed() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    conn.close(CloseReason::Because("web request answered".into()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{AcceptLimits, Connections, OutboxLimits};
    use crate::workers::Workers;
    use std::io::Read;

    #[test]
    fn a_panic_while_serving_a_request_frees_its_place_and_closes_its_connection() {
        let connections = Arc::new(Connections::new(OutboxLimits::default()));
        let open: Arc<Mutex<HashMap<ConnId, Arc<Connection>>>> = Arc::default();
        let places = Arc::new(AtomicUsize::new(0));
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        let serving = Arc::clone(&open);
        // One place: a second connection while the first holds it would be refused.
        let accept = AcceptThread::spawn(
            "accept-web-test",
            listener,
            AcceptLimits {
                max_clients: 1,
                refusal: "full".into(),
            },
            Arc::clone(&places),
            Arc::new(Workers::new("web-test", 256 * 1024, 2)),
            move |stream, peer| {
                let Ok(conn) = connections.open(stream, peer) else {
                    return;
                };
                let _serving = Serving::new(&serving, &conn);
                panic!("a bug while answering a request");
            },
        )
        .expect("an accept thread");
        for _ in 0..3 {
            let mut browser = TcpStream::connect(addr).expect("connect");
            browser
                .set_read_timeout(Some(Duration::from_secs(20)))
                .expect("timeout");
            let mut answer = String::new();
            // Closed, not refused ("full") and not left hanging.
            assert_eq!(
                browser.read_to_string(&mut answer).ok(),
                Some(0),
                "{answer}"
            );
            let deadline = Instant::now() + Duration::from_secs(20);
            while places.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            assert_eq!(places.load(Ordering::SeqCst), 0, "the place is free again");
            assert!(open.lock().is_empty(), "nothing is left on the list");
        }
        accept.stop(Instant::now() + Duration::from_secs(2));
    }
}
