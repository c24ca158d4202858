//! `goserver check` against goserver itself, against goserver behind a proxy that gives
//! it one defect at a time, and against fake servers that break the checker's own
//! expectations.
//!
//! - Against goserver every case passes, or is "open" with goserver's own choice, or
//!   measured: the checker and the server agree.
//! - Each defect is caught by the cases named for it, and by no other.
//! - A server that is silent, floods, sends garbage or closes mid-case gets a clear
//!   failure, and the run ends in bounded time.

mod check_support;
mod common;

use check_support::{ANSWER, Conn, Defect, Proxy, check, failures, set};
use common::TestServer;
use goserver::check::case::Verdict;
use goserver::check::{go, spectrangle};
use goserver::server::Protocol;
use goserver::settings::Settings;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::thread;
use std::time::{Duration, Instant};

/// Every case of `outcomes` passed, was open with goserver's own choice, or measured.
fn agrees(outcomes: &[goserver::check::run::Outcome]) {
    let disagreements: Vec<String> = outcomes
        .iter()
        .filter(|o| {
            matches!(
                o.verdict,
                Verdict::Fail(_) | Verdict::Gone | Verdict::Open { same: false, .. }
            )
        })
        .map(|o| {
            format!(
                "{} {}: {} {}",
                o.case.id,
                o.case.title,
                o.verdict.word(),
                o.verdict.detail()
            )
        })
        .collect();
    assert!(
        disagreements.is_empty(),
        "the checker and goserver disagree:\n{}",
        disagreements.join("\n")
    );
}

#[test]
fn every_go_case_agrees_with_goserver() {
    let server = TestServer::start();
    let outcomes = check(&go::suite(), server.addr, |_| true);
    assert!(outcomes.len() >= 60, "{} GO! cases", outcomes.len());
    agrees(&outcomes);
}

#[test]
fn every_spectrangle_case_agrees_with_goserver() {
    let server = TestServer::serving(Settings::default(), &[Protocol::Spectrangle]);
    let outcomes = check(&spectrangle::suite(), server.addr, |_| true);
    assert!(outcomes.len() >= 40, "{} Spectrangle cases", outcomes.len());
    agrees(&outcomes);
}

/// The GO! cases (all of them, or those of the robustness section too when `all`) run
/// through a proxy with `defect` in front of a fresh goserver: the ids that failed.
fn go_failures(defect: Defect, all: bool) -> (BTreeSet<String>, String) {
    let server = TestServer::start();
    let proxy = Proxy::start(server.addr, defect);
    let outcomes = check(&go::suite(), proxy.addr, |c| {
        all || c.section.slug != "robustness"
    });
    failures(&outcomes)
}

/// Asserts that `defect` fails exactly `expected` of the GO! cases.
fn go_defect(defect: Defect, all: bool, expected: &[&str]) {
    let (failed, detail) = go_failures(defect, all);
    assert_eq!(
        failed,
        set(expected),
        "defect '{}' failed:{detail}",
        defect.name
    );
}

#[test]
fn a_server_that_never_acknowledges_the_final_pass_fails_ending_1() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("ACKNOWLEDGE_MOVE")
            && line.contains("+-1;")
            && line.contains("FINISHED")
        {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the final pass is not acknowledged",
            downstream,
            ..Defect::NONE
        },
        false,
        &["ending.1"],
    );
}

#[test]
fn a_server_that_ignores_moves_out_of_turn_fails_moves_3() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("INVALID_MOVE+Not your turn") {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "a move out of turn gets no answer",
            downstream,
            ..Defect::NONE
        },
        false,
        &["moves.3"],
    );
}

#[test]
fn a_server_that_names_the_wrong_opponent_fails_config_1() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if let Some(rest) = line.strip_prefix("ACKNOWLEDGE_CONFIG+") {
            let fields: Vec<&str> = rest.split('+').collect();
            if fields.len() == 5 {
                return vec![format!(
                    "ACKNOWLEDGE_CONFIG+{}+{}+{}+{}+{}",
                    fields[0], fields[1], fields[2], fields[3], fields[0]
                )];
            }
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the opponent is the player itself",
            downstream,
            ..Defect::NONE
        },
        false,
        &["config.1"],
    );
}

#[test]
fn a_server_that_lets_the_leaver_win_fails_exit_1_and_2() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        // GAME_FINISHED+<id>+<winner>+<score>+<leaver> exited: <winner> wins
        if line.starts_with("GAME_FINISHED") && line.contains(" exited: ") {
            let fields: Vec<&str> = line.splitn(5, '+').collect();
            if let [keyword, id, _, score, message] = fields[..] {
                let leaver = message.split(" exited").next().unwrap_or_default();
                return vec![format!("{keyword}+{id}+{leaver}+{score}+{message}")];
            }
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the player who exits is named the winner",
            downstream,
            ..Defect::NONE
        },
        false,
        &["exit.1", "exit.2"],
    );
}

#[test]
fn a_server_that_does_not_notice_a_disconnect_fails_exit_3() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("GAME_FINISHED") && line.contains(" disconnected") {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the other player is not told of a disconnect",
            downstream,
            ..Defect::NONE
        },
        false,
        &["exit.3"],
    );
}

#[test]
fn a_server_whose_winner_has_the_lower_score_fails_ending_3() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("GAME_FINISHED") && line.contains("Both players passed") {
            let fields: Vec<&str> = line.splitn(5, '+').collect();
            if let [keyword, id, winner, score, message] = fields[..]
                && !winner.is_empty()
            {
                // The loser's name is in the message: "... : <winner> wins"; name the
                // other player by swapping the scores instead.
                let (black, white) = score.split_once(';').unwrap_or((score, score));
                return vec![format!("{keyword}+{id}+{winner}+{white};{black}+{message}")];
            }
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the winner's score is the lower one",
            downstream,
            ..Defect::NONE
        },
        false,
        &["ending.3"],
    );
}

#[test]
fn a_server_that_sends_another_game_id_when_a_game_ends_fails_ending_2() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("GAME_FINISHED") && line.contains("Both players passed") {
            let fields: Vec<&str> = line.splitn(3, '+').collect();
            if let [keyword, id, rest] = fields[..]
                && let Ok(id) = id.parse::<u32>()
            {
                return vec![format!("{keyword}+{}+{rest}", id + 100)];
            }
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "GAME_FINISHED names another game",
            downstream,
            ..Defect::NONE
        },
        false,
        &["ending.2"],
    );
}

#[test]
/// Every case that answers the rematch question reads it first (the document says it
/// comes), so each of them fails too, with the missing REQUEST_REMATCH as its reason.
fn a_server_that_never_asks_for_a_rematch_fails_every_rematch_case() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line == "REQUEST_REMATCH" {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "no REQUEST_REMATCH",
            downstream,
            ..Defect::NONE
        },
        false,
        &[
            "ending.6",
            "ending.7",
            "ending.8",
            "ending.9",
            "ending.14",
            "ending.15",
            "exit.7",
        ],
    );
}

#[test]
/// ending.15 sends its HANDSHAKE only once it has been told of the "no", so it fails
/// too.
fn a_server_that_tells_only_the_one_who_said_no_fails_ending_9_and_15() {
    fn downstream(conn: &mut Conn, line: &str) -> Vec<String> {
        if line == "ACKNOWLEDGE_REMATCH+0" && !conn.said_no {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "the other player is not told of a no",
            downstream,
            ..Defect::NONE
        },
        false,
        &["ending.9", "ending.15"],
    );
}

#[test]
fn a_server_that_never_refuses_suicide_fails_the_suicide_cases() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("INVALID_MOVE+Suicide") {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "a suicide gets no answer",
            downstream,
            ..Defect::NONE
        },
        false,
        &["rules.7", "rules.13"],
    );
}

#[test]
fn a_server_that_never_refuses_a_ko_recapture_fails_rules_8() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("INVALID_MOVE+Ko:") {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "a ko recapture gets no answer",
            downstream,
            ..Defect::NONE
        },
        false,
        &["rules.8"],
    );
}

#[test]
fn a_server_that_does_not_remove_captured_stones_fails_the_cases_that_capture() {
    fn downstream(conn: &mut Conn, line: &str) -> Vec<String> {
        let Some(rest) = line.strip_prefix("ACKNOWLEDGE_MOVE+") else {
            if line.starts_with("ACKNOWLEDGE_CONFIG") {
                conn.board = None;
            }
            return vec![line.to_string()];
        };
        let Some((head, board)) = rest.rsplit_once(';') else {
            return vec![line.to_string()];
        };
        // Stones the server took off stay on the board this client sees.
        let kept: String = match &conn.board {
            Some(before) if before.len() == board.len() => board
                .chars()
                .zip(before.chars())
                .map(|(now, was)| if now == '0' { was } else { now })
                .collect(),
            _ => board.to_string(),
        };
        conn.board = Some(kept.clone());
        vec![format!("ACKNOWLEDGE_MOVE+{head};{kept}")]
    }
    let (failed, detail) = go_failures(
        Defect {
            name: "captured stones stay",
            downstream,
            ..Defect::NONE
        },
        false,
    );
    // Every case that captures, and only those: the capture cases, the ko cases (a ko
    // is a capture), the random games, the superko position, and the README's game
    // that the area score case plays (black's move at 5 takes two stones).
    let expected = set(&[
        "rules.1",
        "rules.2",
        "rules.3",
        "rules.4",
        "rules.5",
        "rules.6",
        "rules.8",
        "rules.9",
        "rules.10",
        "rules.11",
        "rules.12",
        "rules.14",
        "ending.11",
    ]);
    assert_eq!(failed, expected, "{detail}");
}

#[test]
fn a_server_that_reads_each_packet_as_a_line_fails_robustness_1() {
    fn upstream(_: &mut Conn, chunk: &[u8]) -> Vec<u8> {
        // Whatever arrived is taken as a whole line.
        let mut bytes = chunk.to_vec();
        if bytes.last() != Some(&b'\n') {
            bytes.push(b'\n');
        }
        bytes
    }
    go_defect(
        Defect {
            name: "a line in pieces is read as several",
            upstream,
            ..Defect::NONE
        },
        true,
        &["robustness.1"],
    );
}

#[test]
fn a_server_that_answers_only_the_first_of_two_lines_fails_robustness_3() {
    fn upstream(_: &mut Conn, chunk: &[u8]) -> Vec<u8> {
        // Two lines in one read: the second is lost.
        match chunk.iter().position(|&b| b == b'\n') {
            Some(end) if end + 1 < chunk.len() && chunk.ends_with(b"\n") && chunk.len() < 200 => {
                chunk[..=end].to_vec()
            }
            _ => chunk.to_vec(),
        }
    }
    go_defect(
        Defect {
            name: "the second of two lines read together is lost",
            upstream,
            ..Defect::NONE
        },
        true,
        &["robustness.3"],
    );
}

/// A server that answers every line it does not recognise (an unknown keyword, garbage,
/// a lower-case keyword, an empty line) with INVALID_MOVE. Of the cases outside
/// robustness, only `moves.19` must fail: it is the one case whose lines are no command
/// at all, which the document answers with UNKNOWN_COMMAND ("not recognized"), not
/// INVALID_MOVE ("an invalid move"). The other refusals are of commands the server
/// knows, where the two sentences overlap ("invalid" is in both) and either is taken;
/// `moves.16` (`move` in lower case) is a choice, now "refused with INVALID_MOVE"; and
/// the robustness cases that send garbage measure what answers it, so none fails there
/// either.
#[test]
fn a_server_that_says_invalid_move_to_a_line_that_is_no_command_fails_moves_19() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        // goserver's reasons for a line it does not recognise.
        for reason in [
            "Unknown command ",
            "Empty line",
            "The line is not valid UTF-8",
        ] {
            if let Some(rest) = line.strip_prefix("UNKNOWN_COMMAND+")
                && rest.starts_with(reason)
            {
                return vec![format!("INVALID_MOVE+{rest}")];
            }
        }
        vec![line.to_string()]
    }
    go_defect(
        Defect {
            name: "INVALID_MOVE for a line that is no command",
            downstream,
            ..Defect::NONE
        },
        false,
        &["moves.19"],
    );
}

/// A server whose every line ends in CR LF fails nothing (the checker, like goserver,
/// takes a `\r` before the `\n` off), and differs from goserver only in
/// `robustness.17`, which says so; one that ends only some of its lines so is "mixed".
#[test]
fn a_server_whose_lines_end_in_cr_lf_is_told_so_by_robustness_17() {
    fn every_line(_: &mut Conn, line: &str) -> Vec<String> {
        vec![format!("{line}\r")]
    }
    fn moves_only(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("ACKNOWLEDGE_MOVE") {
            return vec![format!("{line}\r")];
        }
        vec![line.to_string()]
    }
    let server = TestServer::start();
    let crlf = Proxy::start(
        server.addr,
        Defect {
            name: "CR LF",
            downstream: every_line,
            ..Defect::NONE
        },
    );
    let outcomes = check(&go::suite(), crlf.addr, |c| {
        c.section.slug != "robustness" || c.id == "robustness.17"
    });
    let (failed, detail) = failures(&outcomes);
    assert!(failed.is_empty(), "{detail}");
    let differ: BTreeSet<String> = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Open { same: false, .. }))
        .map(|o| o.case.id.clone())
        .collect();
    assert_eq!(differ, set(&["robustness.17"]));
    let verdict = |outcomes: &[goserver::check::run::Outcome]| {
        outcomes
            .iter()
            .find(|o| o.case.id == "robustness.17")
            .map(|o| o.verdict.clone())
            .expect("robustness.17 ran")
    };
    assert_eq!(
        verdict(&outcomes),
        Verdict::Open {
            server: "CR LF".to_string(),
            goserver: "LF".to_string(),
            same: false
        }
    );
    let mixed = Proxy::start(
        server.addr,
        Defect {
            name: "CR LF after moves",
            downstream: moves_only,
            ..Defect::NONE
        },
    );
    let outcomes = check(&go::suite(), mixed.addr, |c| c.id == "robustness.17");
    // The players hear ten lines: ACKNOWLEDGE_HANDSHAKE and ACKNOWLEDGE_CONFIG each,
    // the leader's REQUEST_CONFIG, both moves' ACKNOWLEDGE_MOVE each (these four end in
    // CR LF), and black's refusal.
    assert_eq!(
        verdict(&outcomes),
        Verdict::Open {
            server: "mixed: 4 of 10 lines end in CR LF".to_string(),
            goserver: "LF".to_string(),
            same: false
        }
    );
}

#[test]
fn a_server_that_crashes_on_a_long_line_fails_that_case_and_the_rest_are_gone() {
    fn crashes_on(chunk: &[u8]) -> bool {
        chunk.len() > 32 * 1024 && chunk.iter().all(|&b| b == b'A')
    }
    let server = TestServer::start();
    let proxy = Proxy::start(
        server.addr,
        Defect {
            name: "crashes",
            crashes_on,
            ..Defect::NONE
        },
    );
    let outcomes = check(&go::suite(), proxy.addr, |c| c.section.slug == "robustness");
    let (failed, detail) = failures(&outcomes);
    assert_eq!(failed, set(&["robustness.5"]), "{detail}");
    let crashed = outcomes
        .iter()
        .position(|o| o.case.id == "robustness.5")
        .expect("robustness.5 ran");
    // The crash broke the game beside the long line too; after the case nobody answers.
    assert!(!outcomes[crashed].alive);
    if let Verdict::Fail(failure) = &outcomes[crashed].verdict {
        assert!(failure.got.contains("Connection refused"), "{failure:?}");
    }
    assert!(
        outcomes[crashed + 1..]
            .iter()
            .all(|o| o.verdict == Verdict::Gone)
    );
    assert!(outcomes[..crashed].iter().all(|o| o.alive));
}

#[test]
fn a_server_that_dies_after_a_case_that_passed_is_counted_apart() {
    // The proxy "crashes" when the check after the case says hello: the case's own
    // steps all passed, as with a server that serves one game and stops.
    fn crashes_on(chunk: &[u8]) -> bool {
        String::from_utf8_lossy(chunk).contains("HANDSHAKE+alive-")
    }
    let server = TestServer::start();
    let proxy = Proxy::start(
        server.addr,
        Defect {
            name: "serves once",
            crashes_on,
            ..Defect::NONE
        },
    );
    let outcomes = check(&go::suite(), proxy.addr, |c| c.id == "handshake.1");
    let (failed, detail) = failures(&outcomes);
    assert_eq!(failed, set(&["handshake.1"]), "{detail}");
    assert!(outcomes[0].failed_only_after, "{detail}");
    let report = goserver::check::report::Report {
        protocol: "GO!",
        suite: "go",
        target: proxy.addr.to_string(),
        started: "2026-11-27T00:00:00Z".into(),
        took: Duration::from_secs(1),
        answer_timeout: ANSWER,
        sections: go::suite().sections,
        outcomes,
    };
    let summary = goserver::check::report::terminal::summary(&report);
    assert!(
        summary.contains("1 fail (1 only after the case), 0 open"),
        "{summary}"
    );
    assert!(summary.contains("(1 of 1 only after the case's own steps passed"));
    let json: serde_json::Value =
        serde_json::from_str(&goserver::check::report::json::render(&report).expect("renders"))
            .expect("valid JSON");
    assert_eq!(json["counts"]["fail_only_after_the_case"], 1);
    assert_eq!(json["cases"][0]["failed_only_after_the_case"], true);
}

#[test]
fn a_server_with_other_choices_where_the_document_is_open_fails_nothing() {
    let settings = Settings {
        rules: goserver::engine::go::Rules {
            ko: goserver::engine::go::KoRule::Simple,
            suicide: goserver::engine::go::SuicideRule::MultiStoneAllowed,
            komi: goserver::engine::go::Komi::from_halves(13),
        },
        ..Settings::default()
    };
    let server = TestServer::with(settings);
    let outcomes = check(&go::suite(), server.addr, |c| {
        c.section.slug != "robustness"
    });
    let (failed, detail) = failures(&outcomes);
    assert!(failed.is_empty(), "{detail}");
    let differ: BTreeSet<String> = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Open { same: false, .. }))
        .map(|o| o.case.id.clone())
        .collect();
    // Multi-stone suicide, superko, and komi 6.5 in the score and the draw.
    assert_eq!(
        differ,
        set(&["rules.13", "rules.14", "ending.11", "ending.12"])
    );
}

/// The Spectrangle cases but robustness, through a proxy with `defect`: the ids that
/// failed.
fn spectrangle_defect(defect: Defect, expected: &[&str]) {
    let server = TestServer::serving(Settings::default(), &[Protocol::Spectrangle]);
    let proxy = Proxy::start(server.addr, defect);
    let outcomes = check(&spectrangle::suite(), proxy.addr, |c| {
        c.section.slug != "robustness"
    });
    let (failed, detail) = failures(&outcomes);
    assert_eq!(
        failed,
        set(expected),
        "defect '{}' failed:{detail}",
        defect.name
    );
}

#[test]
fn a_spectrangle_server_that_says_invalid_move_for_not_your_turn_fails_moves_3() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        match line.strip_prefix("ERROR 5 ") {
            Some(rest) => vec![format!("ERROR 6 {rest}")],
            None => vec![line.to_string()],
        }
    }
    spectrangle_defect(
        Defect {
            name: "ERROR 6 for not your turn",
            downstream,
            ..Defect::NONE
        },
        &["moves.3"],
    );
}

#[test]
fn a_spectrangle_server_whose_scores_are_off_fails_the_points_cases() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        let Some(rest) = line.strip_prefix("SCORE ") else {
            return vec![line.to_string()];
        };
        let scores: Vec<String> = rest
            .split(' ')
            .map(|pair| match pair.split_once(',') {
                Some((name, points)) => {
                    format!("{name},{}", points.parse::<u32>().unwrap_or(0) + 1)
                }
                None => pair.to_string(),
            })
            .collect();
        vec![format!("SCORE {}", scores.join(" "))]
    }
    spectrangle_defect(
        Defect {
            name: "every score one too many",
            downstream,
            ..Defect::NONE
        },
        &["ending.2", "ending.3"],
    );
}

#[test]
fn a_spectrangle_server_that_lets_a_name_be_taken_twice_fails_join_4() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("ERROR 4 ") {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    spectrangle_defect(
        Defect {
            name: "no ERROR 4",
            downstream,
            ..Defect::NONE
        },
        &["join.4"],
    );
}

#[test]
fn a_spectrangle_server_that_does_not_echo_chat_to_its_sender_fails_extensions_3() {
    fn downstream(conn: &mut Conn, line: &str) -> Vec<String> {
        if line.starts_with("CHAT_MESSAGE ") && conn.chatted {
            return Vec::new();
        }
        vec![line.to_string()]
    }
    spectrangle_defect(
        Defect {
            name: "CHAT_MESSAGE not to its sender",
            downstream,
            ..Defect::NONE
        },
        &["extensions.3"],
    );
}

#[test]
fn a_spectrangle_server_that_says_not_in_a_lobby_for_not_in_a_game_fails_start_5() {
    fn downstream(_: &mut Conn, line: &str) -> Vec<String> {
        match line.strip_prefix("ERROR 8 ") {
            Some(rest) => vec![format!("ERROR 7 {rest}")],
            None => vec![line.to_string()],
        }
    }
    spectrangle_defect(
        Defect {
            name: "ERROR 7 for not in a game",
            downstream,
            ..Defect::NONE
        },
        &["start.5"],
    );
}

#[test]
fn the_proxy_itself_changes_nothing() {
    let server = TestServer::start();
    let proxy = Proxy::start(server.addr, Defect::NONE);
    let outcomes = check(&go::suite(), proxy.addr, |c| {
        ["handshake", "moves"].contains(&c.section.slug)
    });
    agrees(&outcomes);
}

/// A fake server on a port of its own: `serve` runs for each connection, on a thread
/// of its own.
fn fake_server(serve: fn(std::net::TcpStream)) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || serve(stream));
        }
    });
    addr
}

/// Runs the handshake section against `addr`; every case must fail with `got` in its
/// failure, and the run must end within a bound.
fn every_case_fails_with(addr: SocketAddr, got: &str) {
    let began = Instant::now();
    let outcomes = check(&go::suite(), addr, |c| c.section.slug == "handshake");
    // Each case stops at its first wait; the alive check fails too, and the rest are gone.
    assert!(
        began.elapsed() < ANSWER * 8 + Duration::from_secs(10),
        "took {:?}",
        began.elapsed()
    );
    let first = &outcomes[0];
    match &first.verdict {
        Verdict::Fail(failure) => assert!(failure.got.contains(got), "{failure:?}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o.verdict, Verdict::Fail(_) | Verdict::Gone))
    );
}

#[test]
fn a_server_that_accepts_and_says_nothing_fails_each_case_in_bounded_time() {
    fn serve(mut stream: std::net::TcpStream) {
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    }
    every_case_fails_with(fake_server(serve), "nothing within");
}

#[test]
fn a_server_that_sends_megabytes_without_a_newline_is_one_long_line() {
    fn serve(mut stream: std::net::TcpStream) {
        let block = vec![b'x'; 64 * 1024];
        // Up to 64 MB, or until the checker goes.
        for _ in 0..1024 {
            if stream.write_all(&block).is_err() {
                break;
            }
        }
    }
    every_case_fails_with(fake_server(serve), "a line longer than 64 KiB");
}

#[test]
fn a_server_that_sends_binary_garbage_is_told_so() {
    fn serve(mut stream: std::net::TcpStream) {
        let _ = stream.write_all(b"\xff\xfe\x00\x01garbage\n");
        let _ = stream.write_all(b"ACKNOWLEDGE_HANDSHAKE+one+yes\n");
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    }
    every_case_fails_with(fake_server(serve), "a line that is not UTF-8 text");
}

#[test]
fn a_server_that_closes_mid_case_is_told_so() {
    fn serve(mut stream: std::net::TcpStream) {
        let mut line = [0u8; 64];
        let _ = stream.read(&mut line);
        // Goes away after the first line.
    }
    every_case_fails_with(fake_server(serve), "the server closed the connection");
}

#[test]
fn the_checker_s_exit_status_says_what_happened() {
    let binary = env!("CARGO_BIN_EXE_goserver");
    let status = |args: &[&str]| {
        std::process::Command::new(binary)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("runs")
    };
    // Nothing listens on a port just freed.
    let free = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr");
    let unreachable = status(&["check", "go", &free.to_string()]);
    assert_eq!(unreachable.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unreachable.stderr).contains("cannot reach"));
    let exits = status(&[
        "check",
        "go",
        "--server-cmd",
        "echo no such server {port} >&2; exit 3",
    ]);
    assert_eq!(exits.status.code(), Some(2));
    let why = String::from_utf8_lossy(&exits.stderr);
    assert!(
        why.contains("exited (status 3) before it listened") && why.contains("no such server"),
        "{why}"
    );
    let never = status(&[
        "check",
        "go",
        "--server-cmd",
        "sleep 60 # {port}",
        "--start-timeout",
        "0.5",
    ]);
    assert_eq!(never.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&never.stderr).contains("did not listen on port"));
    let no_port = status(&["check", "go", "--server-cmd", "true"]);
    assert_eq!(no_port.status.code(), Some(2));
    let wrong_flag = status(&["check", "go", "localhost:1", "--answer-timeout", "0"]);
    assert_eq!(wrong_flag.status.code(), Some(2));
    let no_case = status(&["check", "go", "localhost:1", "--only", "nothing-at-all"]);
    assert_eq!(no_case.status.code(), Some(2));

    // Against goserver: 0 when nothing fails, with every report written.
    let server = TestServer::start();
    let dir = std::env::temp_dir().join(format!("goserver-check-{}", std::process::id()));
    let (junit, json, html) = (
        dir.join("report.xml"),
        dir.join("report.json"),
        dir.join("html"),
    );
    std::fs::create_dir_all(&dir).expect("dir");
    let ran = status(&[
        "check",
        "go",
        &server.addr.to_string(),
        "--only",
        "handshake,moves.3",
        "--junit",
        junit.to_str().expect("path"),
        "--json",
        json.to_str().expect("path"),
        "--html",
        html.to_str().expect("path"),
    ]);
    assert_eq!(
        ran.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(
        xml.contains(r#"<testsuites name="goserver check go" tests="10" failures="0""#),
        "{xml}"
    );
    assert!(xml.contains("moves.3 A move out of turn is refused and changes nothing"));
    assert!(
        xml.contains("INVALID_MOVE+Not your turn"),
        "the wire log is in the output"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("valid JSON");
    assert_eq!(report["counts"]["fail"], 0);
    assert_eq!(report["cases"].as_array().map(Vec::len), Some(10));
    let index = std::fs::read_to_string(html.join("index.html")).expect("index");
    assert!(index.contains(r#"<a href="moves.3.html">moves.3</a>"#));
    let page = std::fs::read_to_string(html.join("moves.3.html")).expect("a case's page");
    assert!(page.contains("INVALID_MOVE+Not your turn") && !page.contains("<script"));
    let _ = std::fs::remove_dir_all(&dir);

    // 1 when a case fails: a server that never answers.
    fn serve(mut stream: std::net::TcpStream) {
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    }
    let silent = fake_server(serve);
    let failed = status(&[
        "check",
        "go",
        &silent.to_string(),
        "--only",
        "handshake.1",
        "--answer-timeout",
        "0.3",
    ]);
    assert_eq!(failed.status.code(), Some(1));
}
