//! A request's path, matched once into what it asks for (WEB.md's routes). Anything
//! that matches no route is `None`: an unknown front end, an id that is not a number,
//! `..`, `%00`, a path of 10 KB.

use super::assets::Asset;
use crate::live::{Front, GameKey};
use percent_encoding::percent_decode_str;

/// A report card's key in a path: `/client/go/Thiery%20Baudet`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardKey {
    pub front: Front,
    /// The name, percent-decoded.
    pub name: String,
}

/// What a path asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/`: the overview page.
    Overview,
    /// `/game/<front>/<id>`: a game's page.
    GamePage(GameKey),
    /// `/game/<front>/<id>.sgf`: its SGF so far (Go).
    Sgf(GameKey),
    /// `/api/games`.
    Games,
    /// `/api/game/<front>/<id>`.
    Game(GameKey),
    /// `/events`: every game's changes.
    Events,
    /// `/events/<front>/<id>`: one game's states.
    GameEvents(GameKey),
    /// `/standings`: the standings page.
    StandingsPage,
    /// `/api/standings`: every front end's table.
    Standings,
    /// `/api/results`: the newest results (`?limit=N`).
    Results,
    /// `/api/crosstable`: GO!'s crosstable.
    Crosstable,
    /// `/events/standings`: the standings page's stream.
    StandingsEvents,
    /// `/clients`: the report cards' page.
    ClientsPage,
    /// `/client/<front>/<name>`: one card's page.
    ClientPage(CardKey),
    /// `/api/clients`: one row per card.
    Clients,
    /// `/api/clients.csv`: the same as CSV.
    ClientsCsv,
    /// `/api/client/<front>/<name>`: a whole card.
    Client(CardKey),
    /// `/events/clients`: the cards' page's stream.
    ClientsEvents,
    /// `/events/client/<front>/<name>`: one card's page's stream.
    ClientEvents(CardKey),
    /// `/healthz`.
    Health,
    /// An embedded file: a stylesheet, a script, the icon.
    Asset(Asset),
}

impl Route {
    /// The route `path` names, if any.
    pub fn of(path: &str) -> Option<Route> {
        let parts: Vec<&str> = path.strip_prefix('/')?.split('/').collect();
        match parts.as_slice() {
            [""] => Some(Route::Overview),
            ["healthz"] => Some(Route::Health),
            ["events"] => Some(Route::Events),
            ["api", "games"] => Some(Route::Games),
            ["standings"] => Some(Route::StandingsPage),
            ["api", "standings"] => Some(Route::Standings),
            ["api", "results"] => Some(Route::Results),
            ["api", "crosstable"] => Some(Route::Crosstable),
            ["events", "standings"] => Some(Route::StandingsEvents),
            ["clients"] => Some(Route::ClientsPage),
            ["api", "clients"] => Some(Route::Clients),
            ["api", "clients.csv"] => Some(Route::ClientsCsv),
            ["events", "clients"] => Some(Route::ClientsEvents),
            ["client", front, name] => card(front, name).map(Route::ClientPage),
            ["api", "client", front, name] => card(front, name).map(Route::Client),
            ["events", "client", front, name] => card(front, name).map(Route::ClientEvents),
            ["events", front, id] => game(front, id).map(Route::GameEvents),
            ["api", "game", front, id] => game(front, id).map(Route::Game),
            ["game", front, id] => match id.strip_suffix(".sgf") {
                Some(id) => game(front, id).map(Route::Sgf),
                None => game(front, id).map(Route::GamePage),
            },
            _ => Asset::at(path).map(Route::Asset),
        }
    }

    /// Whether a refusal of this path is answered in JSON (under `/api/`) or as a page.
    pub fn wants_json(path: &str) -> bool {
        path.starts_with("/api/")
    }
}

/// The card `front`/`name` names: a known front end and a name, percent-decoded to
/// UTF-8 text without control characters.
fn card(front: &str, name: &str) -> Option<CardKey> {
    let front = Front::parse(front)?;
    let name = percent_decode_str(name).decode_utf8().ok()?;
    if name.is_empty() || name.chars().any(char::is_control) {
        return None;
    }
    Some(CardKey {
        front,
        name: name.into_owned(),
    })
}

/// The game `front`/`id` names: a known front end and a number (digits only).
fn game(front: &str, id: &str) -> Option<GameKey> {
    let front = Front::parse(front)?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id = id.parse().ok()?;
    Some(GameKey { front, id })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(front: Front, id: u32) -> GameKey {
        GameKey { front, id }
    }

    #[test]
    fn each_route_of_web_md_and_nothing_else() {
        let table = [
            ("/", Some(Route::Overview)),
            ("/healthz", Some(Route::Health)),
            ("/events", Some(Route::Events)),
            ("/api/games", Some(Route::Games)),
            ("/standings", Some(Route::StandingsPage)),
            ("/api/standings", Some(Route::Standings)),
            ("/api/results", Some(Route::Results)),
            ("/api/crosstable", Some(Route::Crosstable)),
            ("/events/standings", Some(Route::StandingsEvents)),
            ("/api/standings/go", None),
            ("/game/go/3", Some(Route::GamePage(key(Front::Go, 3)))),
            ("/game/go/3.sgf", Some(Route::Sgf(key(Front::Go, 3)))),
            ("/game/bkgo/1", Some(Route::GamePage(key(Front::Bkgo, 1)))),
            (
                "/api/game/spectrangle/2",
                Some(Route::Game(key(Front::Spectrangle, 2))),
            ),
            ("/events/go/7", Some(Route::GameEvents(key(Front::Go, 7)))),
            ("/game/chess/1", None),
            ("/game/go/x", None),
            ("/game/go/-1", None),
            ("/game/go/+1", None),
            ("/game/go/1/..", None),
            ("/game/go/../go/1", None),
            ("/game/go/1%00", None),
            ("/api/game/go", None),
            ("/static/../Cargo.toml", None),
            ("//", None),
            ("", None),
            ("/game/go/99999999999", None),
            ("/clients", Some(Route::ClientsPage)),
            ("/api/clients", Some(Route::Clients)),
            ("/api/clients.csv", Some(Route::ClientsCsv)),
            ("/events/clients", Some(Route::ClientsEvents)),
            (
                "/client/go/Thiery%20Baudet",
                Some(Route::ClientPage(CardKey {
                    front: Front::Go,
                    name: "Thiery Baudet".into(),
                })),
            ),
            (
                "/api/client/spectrangle/%3Cb%3E%2F",
                Some(Route::Client(CardKey {
                    front: Front::Spectrangle,
                    name: "<b>/".into(),
                })),
            ),
            (
                "/events/client/bkgo/Ann",
                Some(Route::ClientEvents(CardKey {
                    front: Front::Bkgo,
                    name: "Ann".into(),
                })),
            ),
            ("/client/chess/Ann", None),
            ("/client/go/", None),
            ("/client/go/%00", None),
            ("/client/go/%FF", None),
            ("/client/go/a/b", None),
        ];
        for (path, route) in table {
            assert_eq!(Route::of(path), route, "{path}");
        }
        assert!(Route::of(&format!("/{}", "a".repeat(10_000))).is_none());
        assert!(Route::wants_json("/api/game/go/x"));
        assert!(!Route::wants_json("/game/go/x"));
    }
}
