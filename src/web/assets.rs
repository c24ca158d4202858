//! The web board's files, embedded in the binary: a page loads nothing from anywhere
//! but this server (a lab network may have no internet), and there is no build step.

/// An embedded file a path serves as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asset {
    Stylesheet,
    OverviewScript,
    GameScript,
    StandingsScript,
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

/// The page for a path that names nothing, with `{{path}}` where the path goes.
pub const NOT_FOUND_PAGE: &str = include_str!("assets/not-found.html");

const STYLESHEET: &str = include_str!("assets/board.css");
const OVERVIEW_SCRIPT: &str = include_str!("assets/overview.js");
const GAME_SCRIPT: &str = include_str!("assets/game.js");
const STANDINGS_SCRIPT: &str = include_str!("assets/standings.js");
const ICON: &str = include_str!("assets/favicon.svg");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_served_where_the_pages_ask_for_it() {
        for page in [OVERVIEW_PAGE, GAME_PAGE] {
            for path in ["/static/board.css", "/favicon.svg"] {
                assert!(page.contains(path), "a page links {path}");
                assert!(Asset::at(path).is_some());
            }
        }
        assert!(OVERVIEW_PAGE.contains("/static/overview.js"));
        assert!(GAME_PAGE.contains("/static/game.js"));
        assert!(GAME_PAGE.contains("{{title}}"));
        assert!(GAME_PAGE.contains(r#"id="board""#));
    }
}
