//! The web board in a real browser: Debian's headless Chromium, driven through its
//! DevTools protocol. A game page shows exactly the stones of the board after several
//! moves and a capture, and follows one more move without a reload; the overview lists
//! the game. A report card's summary keeps every fact in its cell, from a wide screen
//! to a phone.
//!
//! Chromium must be installed (`make test` installs it as root): its absence is a
//! failure that says how to install it, never a silent pass. `GOSERVER_SKIP_BROWSER=1`
//! skips the test, saying so. Run it alone with
//! `cargo test --release --test browser`. With `GOSERVER_SCREENSHOT=<file.png>` it also
//! saves a screenshot of the game page there (how `docs/web-board.png` is made).

mod common;

use common::*;
use goserver::server::Protocol;
use goserver::settings::Settings;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where Debian puts Chromium.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, unless the test is to be skipped.
fn browser() -> Option<Browser> {
    if std::env::var("GOSERVER_SKIP_BROWSER").as_deref() == Ok("1") {
        println!("skipped: GOSERVER_SKIP_BROWSER=1");
        return None;
    }
    let path = PathBuf::from(CHROMIUM);
    assert!(
        path.exists(),
        "chromium is not installed: run `apt-get install chromium` (or `make test`, which installs it as root), or set GOSERVER_SKIP_BROWSER=1 to skip the browser test"
    );
    // The machine's network may be closed: nothing in the background.
    let args: Vec<&OsStr> = [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions {
        path: Some(path),
        headless: true,
        sandbox: false,
        window_size: Some((1600, 1000)),
        args,
        idle_browser_timeout: Duration::from_secs(120),
        ..LaunchOptions::default()
    };
    Some(Browser::new(options).expect("chromium starts"))
}

/// Evaluates `expression` in the page until what it returns (as a string) satisfies
/// `wanted`, at most [`PATIENCE`]; returns what it last returned.
fn until(tab: &Tab, expression: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let value = tab
            .evaluate(expression, false)
            .ok()
            .and_then(|r| r.value)
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .unwrap_or_default();
        if wanted(&value) || Instant::now() > deadline {
            return value;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// [`until`] the page returns `expected`.
fn eventually(tab: &Tab, expression: &str, expected: &str) -> String {
    until(tab, expression, |value| value == expected)
}

/// The page's stones as `index:colour`, sorted by index.
const STONES: &str = "Array.from(document.querySelectorAll('#board .stone')).map(e => [Number(e.dataset.point), e.dataset.colour]).sort((a, b) => a[0] - b[0]).map(p => p[0] + ':' + p[1]).join(',')";

/// The board's stones from a protocol board string, as [`STONES`] lists them.
fn stones_of(board: &str) -> String {
    board
        .chars()
        .enumerate()
        .filter(|(_, c)| *c != '0')
        .map(|(i, c)| format!("{i}:{c}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn a_game_page_shows_the_board_and_follows_the_game_without_a_reload() {
    let Some(browser) = browser() else { return };
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let base = format!("http://{}", server.web());
    let (mut ann, mut bob) = start_game(&server, 1, 9);
    // Black surrounds white's stone at 10 and takes it with 19 (row 2, col 1).
    for (turn, index) in [1, 10, 9, 40, 11, 60].into_iter().enumerate() {
        let (mover, other, name) = if turn.is_multiple_of(2) {
            (&mut ann, &mut bob, "Ann")
        } else {
            (&mut bob, &mut ann, "Bob")
        };
        mover.send(&format!("MOVE+1+{name}+{index}"));
        let ack = mover.expect_prefix(&format!("ACKNOWLEDGE_MOVE+1+{index};"));
        other.expect(&ack);
    }
    ann.send("MOVE+1+Ann+19");
    let mut last = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+19;1");
    bob.expect(&last);
    let board = last.rsplit(';').next().expect("a board").to_string();
    assert_eq!(&board[10..11], "0", "the stone at 10 was taken");

    let tab: Arc<Tab> = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("{base}/game/go/1"))
        .expect("navigate")
        .wait_until_navigated()
        .expect("the page loads");
    assert_eq!(
        eventually(&tab, STONES, &stones_of(&board)),
        stones_of(&board)
    );
    assert_eq!(
        eventually(
            &tab,
            "Array.from(document.querySelectorAll('#board .last')).map(e => e.dataset.point).join(',')",
            "19"
        ),
        "19"
    );
    assert_eq!(
        eventually(&tab, "document.body.dataset.connection", "live"),
        "live"
    );
    let title = tab.get_title().expect("a title");
    assert!(title.contains("Ann") && title.contains("Bob"), "{title}");

    if let Ok(path) = std::env::var("GOSERVER_SCREENSHOT") {
        let png = tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("a screenshot");
        std::fs::write(&path, png).expect("the screenshot is written");
    }

    // One more move: the page follows it without a reload.
    bob.send("MOVE+1+Bob+80");
    last = bob.expect_prefix("ACKNOWLEDGE_MOVE+1+80;2");
    ann.expect(&last);
    let board = last.rsplit(';').next().expect("a board").to_string();
    assert_eq!(
        eventually(&tab, STONES, &stones_of(&board)),
        stones_of(&board)
    );
    assert_eq!(
        eventually(
            &tab,
            "Array.from(document.querySelectorAll('#board .last')).map(e => e.dataset.point).join(',')",
            "80"
        ),
        "80"
    );

    // Ann is to play: the page says how long she has been waited for, and counts on.
    let waited = "(document.querySelector('.turn-line .waited') || {}).textContent || ''";
    let text = until(&tab, waited, |text| {
        text.starts_with("waiting ") && text != "waiting 0 s"
    });
    assert!(
        text.starts_with("waiting ") && text.ends_with(" s") && text != "waiting 0 s",
        "{text:?}"
    );

    // The overview lists the game, with both names.
    tab.navigate_to(&format!("{base}/"))
        .expect("navigate")
        .wait_until_navigated()
        .expect("the overview loads");
    let listed = "(document.querySelector('[data-game=\"go/1\"]') || {}).textContent || ''";
    let text = until(&tab, listed, |text| {
        text.contains("Ann") && text.contains("Bob")
    });
    assert!(text.contains("Ann") && text.contains("Bob"), "{text:?}");
    let card_wait =
        "(document.querySelector('[data-game=\"go/1\"] .to-move .waited') || {}).textContent || ''";
    let text = until(&tab, card_wait, |text| text.starts_with("waiting "));
    assert!(text.starts_with("waiting "), "{text:?}");
}

#[test]
fn the_standings_page_follows_a_finished_game_without_a_reload() {
    let Some(browser) = browser() else { return };
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let base = format!("http://{}", server.web());
    let tab: Arc<Tab> = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("{base}/standings"))
        .expect("navigate")
        .wait_until_navigated()
        .expect("the page loads");
    assert_eq!(
        eventually(&tab, "document.body.dataset.connection", "live"),
        "live"
    );
    let rows = "Array.from(document.querySelectorAll('#go-rows tr')).map(r => r.textContent.replace(/\\s+/g, ' ').trim()).join(' | ')";
    assert_eq!(eventually(&tab, rows, ""), "");

    // A game ends while the page is open: Ann (black) takes the board.
    let hostile = "<b>Bob";
    let (mut ann, mut bob) = start_named(&server, 1, 5, "Ann", hostile);
    // Each waits for the other's move before its own: a line sent early is not its turn.
    ann.send("MOVE+1+Ann+0");
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+0;1");
    bob.expect_prefix("ACKNOWLEDGE_MOVE+1+0;1");
    bob.send(&format!("PASS+1+{hostile}"));
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;2");
    bob.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;2");
    ann.send("PASS+1+Ann");
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;1+FINISHED");
    ann.expect_prefix("GAME_FINISHED+1+Ann+");
    let shown = until(&tab, rows, |text| {
        text.contains("Ann") && text.contains("Bob")
    });
    assert!(
        shown.contains("Ann") && shown.contains("1662") && shown.contains("<b>Bob"),
        "rows {shown:?}; the page: connection {:?}, text {:?}",
        until(&tab, "document.body.dataset.connection", |_| true),
        until(&tab, "document.querySelector('main').innerText", |_| true),
    );
    // The hostile name is text: no element was made of it.
    assert_eq!(
        eventually(
            &tab,
            "String(document.querySelectorAll('main b').length)",
            "0"
        ),
        "0"
    );
    if let Ok(path) = std::env::var("GOSERVER_STANDINGS_SCREENSHOT") {
        let png = tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("a screenshot");
        std::fs::write(&path, png).expect("the screenshot is written");
    }
}

#[test]
fn the_report_cards_page_lists_each_client_live_sorts_and_links_to_a_card() {
    let Some(browser) = browser() else { return };
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let base = format!("http://{}", server.web());
    let tab: Arc<Tab> = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("{base}/clients"))
        .expect("navigate")
        .wait_until_navigated()
        .expect("the page loads");
    assert_eq!(
        eventually(&tab, "document.body.dataset.connection", "live"),
        "live"
    );
    // The README's game, with three mistakes, while the page is open.
    let hostile = "<b>Bob";
    let (mut ann, mut bob) = start_named(&server, 1, 5, "Ann", hostile);
    bob.send(&format!("MOVE+1+{hostile}+3"));
    bob.expect("INVALID_MOVE+Not your turn: black is to move");
    ann.send("MOVE+1+Ann+6");
    let ack = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+6;1");
    bob.expect(&ack);
    bob.send(&format!("MOVE+1+{hostile}+7"));
    let ack = bob.expect_prefix("ACKNOWLEDGE_MOVE+1+7;2");
    ann.expect(&ack);
    ann.send("MOVE+1+Ann+7");
    ann.expect("INVALID_MOVE+Tile 7 (C4) is not empty");
    bob.send(&format!("move+1+{hostile}+1"));
    bob.expect_prefix("UNKNOWN_COMMAND+Unknown command 'move'");

    // The rows follow without a reload, the worst first; the hostile name is text. The
    // kind made most often: on a tie, the first in docs/report.md's order.
    let rows = "Array.from(document.querySelectorAll('#clients-rows tr')).map(r => Array.from(r.children).map(c => c.textContent.trim()).join('|')).join(' / ')";
    let shown = until(&tab, rows, |text| {
        text.contains("<b>Bob|1|0|0-0-0|1|2|") && text.contains("Ann|1|0|0-0-0|1|1|")
    });
    assert!(
        shown.starts_with("GO!|<b>Bob|1|0|0-0-0|1|2|wrong-case 1|1|0|0|"),
        "{shown}"
    );
    assert!(
        shown.contains(" / GO!|Ann|1|0|0-0-0|1|1|point-taken 1|1|0|0|"),
        "{shown}"
    );
    assert_eq!(
        eventually(
            &tab,
            "String(document.querySelectorAll('main b').length)",
            "0"
        ),
        "0"
    );
    // A click on a column sorts by it: names A to Z.
    tab.evaluate(
        "document.querySelector('#clients-head th[data-key=\"name\"] button').click()",
        false,
    )
    .expect("a click");
    let first = "(document.querySelector('#clients-rows tr th a') || {}).textContent || ''";
    assert_eq!(
        eventually(&tab, first, "<b>Bob"),
        "<b>Bob",
        "'<' sorts before 'A'"
    );
    tab.evaluate(
        "document.querySelector('#clients-head th[data-key=\"name\"] button').click()",
        false,
    )
    .expect("a click");
    assert_eq!(eventually(&tab, first, "Ann"), "Ann");
    if let Ok(path) = std::env::var("GOSERVER_CLIENTS_SCREENSHOT") {
        let png = tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("a screenshot");
        std::fs::write(&path, png).expect("the screenshot is written");
    }

    // The name links to the card, which shows each mistake with its line and answer.
    let href = until(
        &tab,
        "(document.querySelector('#clients-rows a[href*=\"Bob\"]') || {}).href || ''",
        |h| !h.is_empty(),
    );
    assert!(href.ends_with("/client/go/%3Cb%3EBob"), "{href}");
    tab.navigate_to(&href)
        .expect("navigate")
        .wait_until_navigated()
        .expect("the card loads");
    let kinds = "Array.from(document.querySelectorAll('.mistake')).map(m => m.dataset.kind + ':' + m.querySelector('.sent').textContent).join(' / ')";
    assert_eq!(
        eventually(
            &tab,
            kinds,
            "wrong-case:move+1+<b>Bob+1 / not-your-turn:MOVE+1+<b>Bob+3"
        ),
        "wrong-case:move+1+<b>Bob+1 / not-your-turn:MOVE+1+<b>Bob+3"
    );
    let title = tab.get_title().expect("a title");
    assert_eq!(title, "goserver: <b>Bob (go)");
}

/// Where one fact of a card's summary runs into another, or out of its cell, or the
/// page scrolls sideways: `ok` when none does. Boxes are compared with a pixel to spare.
const SUMMARY_FITS: &str = r#"(() => {
  const facts = Array.from(document.querySelectorAll('#summary .fact'));
  const name = (f) => f.querySelector('dt').textContent;
  const boxes = facts.map((f) => f.getBoundingClientRect());
  const bad = [];
  facts.forEach((fact, i) => {
    const box = boxes[i];
    for (const inner of fact.querySelectorAll('*')) {
      const r = inner.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) bad.push(`${name(fact)}: ${inner.tagName} sticks out`);
    }
    const dd = fact.querySelector('dd');
    if (dd.scrollWidth > dd.clientWidth + 1) bad.push(`${name(fact)}: its value overflows`);
    for (let j = i + 1; j < facts.length; j++) {
      const o = boxes[j];
      if (box.left < o.right - 1 && o.left < box.right - 1 && box.top < o.bottom - 1 && o.top < box.bottom - 1) {
        bad.push(`${name(fact)} overlaps ${name(facts[j])}`);
      }
    }
  });
  if (document.documentElement.scrollWidth > window.innerWidth) bad.push('the page scrolls sideways');
  return bad.join('; ') || 'ok';
})()"#;

/// Sets the page's viewport to `width` x `height` CSS pixels.
fn viewport(tab: &Tab, width: u32, height: u32) {
    use headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride;
    tab.call_method(SetDeviceMetricsOverride {
        width,
        height,
        device_scale_factor: 1.0,
        mobile: width < 600,
        scale: None,
        screen_width: None,
        screen_height: None,
        position_x: None,
        position_y: None,
        dont_set_visible_size: None,
        screen_orientation: None,
        viewport: None,
        display_feature: None,
        device_posture: None,
    })
    .expect("the viewport is set");
}

#[test]
fn a_card_s_summary_keeps_each_fact_in_its_cell_at_every_width() {
    let Some(browser) = browser() else { return };
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let base = format!("http://{}", server.web());
    // A long name, and its line refused 37 times in a row: the longest run's line is
    // the summary's widest value, beside the two dates of "Seen".
    let long = "Bartholomew_the_Magnificent";
    let (_ann, mut bart) = start_named(&server, 1, 9, "Ann", long);
    for _ in 0..37 {
        bart.send(&format!("MOVE+1+{long}+0"));
        bart.expect("INVALID_MOVE+Not your turn: black is to move");
    }
    let tab: Arc<Tab> = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("{base}/client/go/{long}"))
        .expect("navigate")
        .wait_until_navigated()
        .expect("the card loads");
    let run =
        "Array.from(document.querySelectorAll('#summary dd')).map(d => d.textContent).join(' | ')";
    let shown = until(&tab, run, |text| text.contains("37 × MOVE+1+"));
    assert!(shown.contains(&format!("37 × MOVE+1+{long}+0")), "{shown}");
    // A laptop, a smaller one, a wide screen, phones.
    for (width, height) in [
        (1400, 900),
        (1024, 768),
        (1920, 1080),
        (390, 844),
        (320, 640),
    ] {
        viewport(&tab, width, height);
        assert_eq!(
            eventually(&tab, SUMMARY_FITS, "ok"),
            "ok",
            "at {width} x {height} px"
        );
    }
    if let Ok(path) = std::env::var("GOSERVER_CARD_SCREENSHOT") {
        viewport(&tab, 1400, 900);
        let png = tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("a screenshot");
        std::fs::write(&path, png).expect("the screenshot is written");
    }
}
