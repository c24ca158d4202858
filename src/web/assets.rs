//! The web board's files, embedded in the binary: a page loads nothing from anywhere
//! but this server (a lab network may have no internet), and there is no build step.

/// An embedded file a path serves as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asset {
    Stylesheet,
    OverviewScript,
    GameScript,
    StandingsScript,
    ClientsScript,
    ClientScript,
    Icon,
}

impl Asset {
    /// The asset served at `path`.
    pub fn at(path: &str) -> Option<Asset> {
        match path {
            "/static/board.css" => Some(Asset::Stylesheet),
            "/static/overview.js" => Some(Asset::OverviewScript),
            "/static/game.js" => Some(Asset::GameScript),
            "/static/standings.js" => Some(Asset::StandingsScript),
            "/static/clients.js" => Some(Asset::ClientsScript),
            "/static/client.js" => Some(Asset::ClientScript),
            "/favicon.svg" | "/favicon.ico" => Some(Asset::Icon),
            _ => None,
        }
    }

    /// Its content type and bytes.
    pub fn file(self) -> (&'static str, &'static str) {
        match self {
            Asset::Stylesheet => ("text/css; charset=utf-8", STYLESHEET),
            Asset::OverviewScript => ("text/javascript; charset=utf-8", OVERVIEW_SCRIPT),
            Asset::GameScript => ("text/javascript; charset=utf-8", GAME_SCRIPT),
            Asset::StandingsScript => ("text/javascript; charset=utf-8", STANDINGS_SCRIPT),
            Asset::ClientsScript => ("text/javascript; charset=utf-8", CLIENTS_SCRIPT),
            Asset::ClientScript => ("text/javascript; charset=utf-8", CLIENT_SCRIPT),
            Asset::Icon => ("image/svg+xml", ICON),
        }
    }
}

/// The overview page (`/`).
pub const OVERVIEW_PAGE: &str = include_str!("assets/overview.html");

/// A game's page (`/game/<front>/<id>`), with `{{title}}` where the game's name goes.
pub const GAME_PAGE: &str = include_str!("assets/game.html");

/// The standings page (`/standings`).
pub const STANDINGS_PAGE: &str = include_str!("assets/standings.html");

/// The report cards' page (`/clients`).
pub const CLIENTS_PAGE: &str = include_str!("assets/clients.html");

/// One card's page (`/client/<front>/<name>`), with `{{title}}` where its name goes.
pub const CLIENT_PAGE: &str = include_str!("assets/client.html");

/// The page for a path that names nothing, with `{{path}}` where the path goes.
pub const NOT_FOUND_PAGE: &str = include_str!("assets/not-found.html");

const STYLESHEET: &str = include_str!("assets/board.css");
const OVERVIEW_SCRIPT: &str = include_str!("assets/overview.js");
const GAME_SCRIPT: &str = include_str!("assets/game.js");
const STANDINGS_SCRIPT: &str = include_str!("assets/standings.js");
const CLIENTS_SCRIPT: &str = include_str!("assets/clients.js");
const CLIENT_SCRIPT: &str = include_str!("assets/client.js");
const ICON: &str = include_str!("assets/favicon.svg");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_served_where_the_pages_ask_for_it() {
        for page in [OVERVIEW_PAGE, GAME_PAGE, CLIENTS_PAGE, CLIENT_PAGE] {
            for path in ["/static/board.css", "/favicon.svg"] {
                assert!(page.contains(path), "a page links {path}");
                assert!(Asset::at(path).is_some());
            }
        }
        assert!(OVERVIEW_PAGE.contains("/static/overview.js"));
        assert!(GAME_PAGE.contains("/static/game.js"));
        assert!(GAME_PAGE.contains("{{title}}"));
        assert!(CLIENTS_PAGE.contains("/static/clients.js"));
        assert!(CLIENT_PAGE.contains("/static/client.js"));
        assert!(CLIENT_PAGE.contains("{{title}}"));
        assert!(GAME_PAGE.contains(r#"id="board""#));
    }
}
