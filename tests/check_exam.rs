//! The exam of a GO! client (`goserver check go --client-cmd`) on the project's own
//! client, `goserver play`; on it behind a proxy that gives it one defect at a time;
//! and on bad clients that break the exam's own expectations.
//!
//! - `goserver play` passes every Required case, makes goserver's choice in every
//!   Choice, and fails nothing; through a transparent proxy too.
//! - Each defect fails exactly the cases named for it (and makes a choice other than
//!   goserver's exactly where named).
//! - A client that exits at once, never connects, opens a second connection, floods,
//!   sends garbage or never speaks fails each case with a clear line, in bounded time,
//!   and nothing the exam started is left running.

mod check_exam_support;

use check_exam_support::{
    ANSWER, Defect, Found, Front, Out, START, Scratch, Seen, all_ids, exam, found, left_running,
    on_to_client, set,
};
use goserver::check::case::{Kind, Verdict};
use goserver::check::run::Outcome;
use goserver::check::target::STOP_GRACE;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// `goserver play`'s flags in every run: three games (so that it accepts the
/// rematches), and quick moves.
const PLAY: &str = "--games 3 --think 30";

/// The case that only measures patience with a slow server: 8 s of the exam's own
/// delays. The whole runs take it; the defect runs leave it out, to keep the file's
/// run short: a defect changes lines, not their timing, and what the case asks of
/// the lines (legal moves) the turns and sizes cases ask too.
const SLOW_SERVER: &str = "wire.3";

/// The exam on `goserver play` behind `defect` (every case, or every one but
/// [`SLOW_SERVER`] unless `whole`); asserts that it left no process running.
fn exam_with(defect: Defect, whole: bool) -> (Vec<Outcome>, Found) {
    let front = Front::start(defect);
    let outcomes = exam(&front.command(PLAY), START, |c| {
        whole || c.id != SLOW_SERVER
    });
    let groups = front.scratch.groups();
    assert_eq!(groups.len(), outcomes.len(), "a client started per case");
    let left = left_running(&groups, STOP_GRACE);
    assert!(left.is_empty(), "left running: {left:?}");
    let found = found(&outcomes);
    (outcomes, found)
}

/// Asserts that `defect` fails exactly `failed` and makes a choice other than
/// goserver's exactly in `other_choices`.
fn defect(defect: Defect, failed: BTreeSet<String>, other_choices: &[&str]) {
    let (_, found) = exam_with(defect, false);
    assert_eq!(
        (found.failed, found.other_choices),
        (failed, set(other_choices)),
        "defect '{}' found:{}",
        defect.name,
        found.detail
    );
}

/// Every Required case passed, every Choice is goserver's, every measure measured.
fn all_well(outcomes: &[Outcome]) {
    let wrong: Vec<String> = outcomes
        .iter()
        .filter(|o| {
            !matches!(
                (o.case.kind, &o.verdict),
                (Kind::Required, Verdict::Pass)
                    | (Kind::Choice, Verdict::Open { same: true, .. })
                    | (Kind::Measure, Verdict::Measured { .. })
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
        wrong.is_empty(),
        "the exam and goserver play disagree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn goserver_play_passes_the_whole_exam() {
    let scratch = Scratch::new();
    let template = format!(
        "{} && exec '{}' play go 127.0.0.1:{{port}} {PLAY}",
        scratch.record_group(),
        env!("CARGO_BIN_EXE_goserver")
    );
    let outcomes = exam(&template, START, |_| true);
    assert_eq!(outcomes.len(), 40, "the GO! exam's cases");
    all_well(&outcomes);
    let left = left_running(&scratch.groups(), STOP_GRACE);
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn through_the_transparent_proxy_goserver_play_passes_too() {
    let (outcomes, _) = exam_with(Defect::NONE, true);
    all_well(&outcomes);
}

// The defects. Each is a mistake students' clients make; the proxy plants it in
// `goserver play`'s lines, or in what it hears.

/// Every case of a defect run but `ids`.
fn all_but(ids: &[&str]) -> BTreeSet<String> {
    let but = set(ids);
    all_ids()
        .into_iter()
        .filter(|id| !but.contains(id) && id != SLOW_SERVER)
        .collect()
}

/// Whether `line` (either side's) is `keyword`'s, e.g. `MOVE`.
fn is(line: &str, keyword: &str) -> bool {
    line.split('+').next() == Some(keyword)
}

/// `line` with field `n` (from 0, the keyword) replaced by `value`.
fn with_field(line: &str, n: usize, value: &str) -> String {
    let mut fields: Vec<&str> = line.split('+').collect();
    if let Some(field) = fields.get_mut(n) {
        *field = value;
    }
    fields.join("+")
}

/// Every case after the first line fails: its second line is a HANDSHAKE again, where
/// a SET_CONFIG or a MOVE was due (a choice and a measure fail too: none gets its
/// answer).
#[test]
fn a_client_that_greets_twice_fails_every_case_after_the_first_line() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Checker(line.to_string())];
        if is(line, "HANDSHAKE") {
            outs.push(Out::Checker(line.to_string()));
        }
        outs
    }
    defect(
        Defect {
            name: "HANDSHAKE sent twice",
            from_client,
            ..Defect::NONE
        },
        all_but(&["greeting.1"]),
        &[],
    );
}

#[test]
fn a_client_that_configures_game_1_whatever_its_id_fails_greeting_2_and_7() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "SET_CONFIG") {
            return vec![Out::Checker(with_field(line, 1, "1"))];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "SET_CONFIG always for game 1",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.2", "greeting.7"]),
        &[],
    );
}

#[test]
fn a_client_that_answers_request_config_once_only_fails_greeting_8() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "SET_CONFIG") {
            seen.count += 1;
            if seen.count > 1 {
                return Vec::new();
            }
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "a second REQUEST_CONFIG unanswered",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.8"]),
        &[],
    );
}

#[test]
fn a_client_that_configures_as_partner_too_fails_greeting_5() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Client(line.to_string())];
        if is(line, "ACKNOWLEDGE_HANDSHAKE") && line.ends_with("+0") {
            outs.push(Out::Checker(format!("SET_CONFIG+{}+0+9", seen.game_id)));
        }
        outs
    }
    defect(
        Defect {
            name: "SET_CONFIG sent as partner",
            from_checker,
            ..Defect::NONE
        },
        set(&["greeting.5"]),
        &[],
    );
}

/// Its SET_CONFIG (game 1, random, 9x9) comes right after its HANDSHAKE, before it
/// knows the game id or whether it leads; its own answer to REQUEST_CONFIG is dropped.
/// Right by chance where the game is 1 and it leads; wrong in greeting.2 and
/// greeting.7 (other ids), greeting.5 (a partner) and greeting.10 (it did not wait).
#[test]
fn a_client_that_configures_without_waiting_fails_greeting_2_5_7_and_10() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "HANDSHAKE") {
            seen.mark = true;
            return vec![
                Out::Checker(line.to_string()),
                Out::Checker("SET_CONFIG+1+0+9".to_string()),
            ];
        }
        if is(line, "SET_CONFIG") && seen.mark {
            seen.mark = false;
            return Vec::new();
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "SET_CONFIG at once after HANDSHAKE",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.2", "greeting.5", "greeting.7", "greeting.10"]),
        &[],
    );
}

#[test]
fn a_client_that_asks_for_a_board_of_size_0_fails_greeting_3() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "SET_CONFIG") {
            return vec![Out::Checker(with_field(line, 3, "0"))];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "SET_CONFIG for a board of size 0",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.3"]),
        &[],
    );
}

#[test]
fn a_client_whose_moves_are_for_game_1_whatever_its_id_fails_greeting_7() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE") {
            return vec![Out::Checker(with_field(line, 1, "1"))];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "MOVE always for game 1",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.7"]),
        &[],
    );
}

#[test]
fn a_client_that_moves_under_the_name_it_asked_for_fails_greeting_6() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE") {
            return vec![Out::Checker(with_field(line, 2, &seen.asked))];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "MOVE under the name asked for, not the one granted",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.6"]),
        &[],
    );
}

/// As white it moves (the centre point) as soon as ACKNOWLEDGE_CONFIG comes, black to
/// move; its own next move is dropped. Caught where the exam waits for black's move
/// in silence: turns.2 and end.4 (white in the rematch). Where the server's black
/// moves (or passes) at once, before it reads the client's line (turns.4, sizes.2,
/// end.9), the early move reads as the answer to black's: nothing to tell.
#[test]
fn a_client_that_moves_first_as_white_fails_turns_2_and_end_4() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Client(line.to_string())];
        let black_to_move = line.split('+').nth(4).is_some_and(|s| s.contains(";1;"));
        if is(line, "ACKNOWLEDGE_CONFIG") && seen.colour == "2" && black_to_move {
            let centre = i64::try_from(seen.size * seen.size / 2).unwrap_or(0);
            outs.push(Out::Checker(seen.move_line(centre)));
            seen.mark = true;
        }
        outs
    }
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE") && seen.mark {
            seen.mark = false;
            return Vec::new();
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "MOVE out of turn (as white, first)",
            from_client,
            from_checker,
        },
        set(&["turns.2", "end.4"]),
        &[],
    );
}

/// Every move goes on the point of the opponent's last stone, as a client that does
/// not track the opponent's moves might: every case in which the client moves after
/// the opponent has put a stone on the board (wire.3 too, when it runs). Not those
/// where it moves first only (greeting.4, 5, 10, turns.1, 5, 6, 9, end.5, 6, 7,
/// wire.1, 2, 4), nor after a pass only (turns.4, end.9).
#[test]
fn a_client_that_moves_on_the_opponent_s_stone_fails_every_case_that_gets_there() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE")
            && let Some(point) = seen.opponent_point
        {
            return vec![Out::Checker(with_field(line, 3, &point.to_string()))];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "MOVE on an occupied point (the opponent's last)",
            from_client,
            ..Defect::NONE
        },
        set(&[
            "greeting.6",
            "greeting.7",
            "turns.2",
            "turns.3",
            "turns.7",
            "turns.8",
            "turns.10",
            "sizes.1",
            "sizes.2",
            "sizes.3",
            "sizes.4",
            "sizes.5",
            "end.1",
            "end.2",
            "end.3",
            "end.4",
            "end.8",
            "wire.5",
        ]),
        &[],
    );
}

/// A pass after every GAME_FINISHED: every case with a GAME_FINISHED (the draw, the
/// move clock, the opponent leaving, the decimal scores among them), and only those.
#[test]
fn a_client_that_moves_after_the_game_finished_fails_end_1_to_8_and_wire_4() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Client(line.to_string())];
        if is(line, "GAME_FINISHED") {
            outs.push(Out::Checker(seen.move_line(-1)));
        }
        outs
    }
    defect(
        Defect {
            name: "a MOVE after GAME_FINISHED",
            from_checker,
            ..Defect::NONE
        },
        set(&[
            "end.1", "end.2", "end.3", "end.4", "end.5", "end.6", "end.7", "end.8", "wire.4",
        ]),
        &[],
    );
}

/// Every case where it answers the rematch question (end.1 and end.7 ask none).
#[test]
fn a_client_that_answers_set_rematch_2_fails_every_rematch_question() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        if line == "SET_REMATCH+1" {
            return vec![Out::Checker("SET_REMATCH+2".to_string())];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "SET_REMATCH+2 for yes",
            from_client,
            ..Defect::NONE
        },
        set(&[
            "end.2", "end.3", "end.4", "end.5", "end.6", "end.8", "wire.4",
        ]),
        &[],
    );
}

/// Its answer twice: end.2 hears the second, end.3 and end.4 get it for a move or in
/// the silence before black's; end.8 hears it after ACKNOWLEDGE_REMATCH+0 (a choice,
/// not goserver's). The cases that end with the answer (end.5, end.6, wire.4) cannot
/// tell.
#[test]
fn a_client_that_answers_the_rematch_twice_fails_end_2_3_and_4() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Checker(line.to_string())];
        if is(line, "SET_REMATCH") {
            outs.push(Out::Checker(line.to_string()));
        }
        outs
    }
    defect(
        Defect {
            name: "SET_REMATCH sent twice",
            from_client,
            ..Defect::NONE
        },
        set(&["end.2", "end.3", "end.4"]),
        &["end.8"],
    );
}

/// SET_REMATCH+1 as soon as GAME_FINISHED comes, asked or not (its answer to the
/// question, when it comes, dropped): caught where nobody asks (end.1, end.7).
#[test]
fn a_client_that_answers_an_unasked_rematch_fails_end_1_and_7() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        let mut outs = vec![Out::Client(line.to_string())];
        if is(line, "GAME_FINISHED") {
            outs.push(Out::Checker("SET_REMATCH+1".to_string()));
            seen.mark = true;
        }
        outs
    }
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "SET_REMATCH") && seen.mark {
            seen.mark = false;
            return Vec::new();
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "SET_REMATCH without REQUEST_REMATCH",
            from_client,
            from_checker,
        },
        set(&["end.1", "end.7"]),
        &[],
    );
}

/// Marks the connection when the checker's line is `keyword`'s.
fn mark_on(seen: &mut Seen, line: &str, keyword: &str) -> Vec<Out> {
    if is(line, keyword) {
        seen.mark = true;
    }
    vec![Out::Client(line.to_string())]
}

/// Drops the next MOVE once marked.
fn drop_marked_move(seen: &mut Seen, line: &str) -> Vec<Out> {
    if is(line, "MOVE") && seen.mark {
        seen.mark = false;
        return Vec::new();
    }
    vec![Out::Checker(line.to_string())]
}

/// turns.9, a choice, fails too: its second move never comes.
#[test]
fn a_client_that_does_not_move_after_invalid_move_fails_turns_5_and_9() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        mark_on(seen, line, "INVALID_MOVE")
    }
    defect(
        Defect {
            name: "no move after INVALID_MOVE",
            from_client: drop_marked_move,
            from_checker,
        },
        set(&["turns.5", "turns.9"]),
        &[],
    );
}

#[test]
fn a_client_that_does_not_move_after_unknown_command_fails_turns_6() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        mark_on(seen, line, "UNKNOWN_COMMAND")
    }
    defect(
        Defect {
            name: "no move after UNKNOWN_COMMAND",
            from_client: drop_marked_move,
            from_checker,
        },
        set(&["turns.6"]),
        &[],
    );
}

/// The refused move again, as RoboClient does. The document does not say that a
/// refused move must not come again, and the exam refuses a legal move (turns.5 takes
/// the same move as its answer): it shows as the choice of turns.9, the refused move
/// again, where goserver plays another.
#[test]
fn a_client_that_resends_a_refused_move_differs_from_goserver_in_turns_9() {
    fn from_checker(seen: &mut Seen, line: &str) -> Vec<Out> {
        mark_on(seen, line, "INVALID_MOVE")
    }
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE")
            && seen.mark
            && let Some(refused) = seen.last_move.clone()
        {
            seen.mark = false;
            return vec![Out::Checker(refused)];
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "the refused move resent",
            from_client,
            from_checker,
        },
        BTreeSet::new(),
        &["turns.9"],
    );
}

/// It takes the opponent's pass for the end: no move after it. turns.4 and end.9 (a
/// choice: it cannot get to the close) pass for the opponent at once. So does the
/// whole game on 5x5 (turns.8) in the end: the server's opponent, which takes the
/// far corner's points, runs out of legal points while the client's bot still plays
/// (every run seen, on a busy machine too), and passes first; the client's move is due.
#[test]
fn a_client_that_stops_after_the_opponent_s_pass_fails_turns_4_8_and_end_9() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "MOVE") && seen.opponent_passed {
            return Vec::new();
        }
        vec![Out::Checker(line.to_string())]
    }
    defect(
        Defect {
            name: "no move after the opponent's pass",
            from_client,
            ..Defect::NONE
        },
        set(&["turns.4", "turns.8", "end.9"]),
        &[],
    );
}

/// A MOVE right after its SET_CONFIG, before ACKNOWLEDGE_CONFIG, under the name it
/// asked for (the only one it knows yet); its own first move is dropped. Caught where
/// the exam waits in silence: greeting.4, and turns.2 (white waits for black); where
/// another name is granted (greeting.6); and where a second REQUEST_CONFIG is due an
/// answer (greeting.8). Where the exam reads a move next, the early one reads as the
/// first: nothing to tell. The early move is a pass, legal in every game: a point
/// could be one `goserver play`, which never saw it refused, sends again in turns.9
/// (its fallback after a refusal is the first free point), now and then.
#[test]
fn a_client_that_moves_before_acknowledge_config_fails_greeting_4_6_8_and_turns_2() {
    fn from_client(seen: &mut Seen, line: &str) -> Vec<Out> {
        if is(line, "SET_CONFIG") {
            let id = line.split('+').nth(1).unwrap_or_default();
            seen.mark = true;
            return vec![
                Out::Checker(line.to_string()),
                Out::Checker(format!("MOVE+{id}+{}+-1", seen.asked)),
            ];
        }
        drop_marked_move(seen, line)
    }
    defect(
        Defect {
            name: "MOVE before ACKNOWLEDGE_CONFIG",
            from_client,
            ..Defect::NONE
        },
        set(&["greeting.4", "greeting.6", "greeting.8", "turns.2"]),
        &[],
    );
}

/// A line longer than 1 KiB is lost, as in a client that reads into a fixed buffer:
/// only the long REQUEST_CONFIG of greeting.9 is (a 25x25 board's line is 0.7 KiB).
#[test]
fn a_client_that_loses_lines_over_1_kib_fails_greeting_9() {
    fn from_checker(_: &mut Seen, line: &str) -> Vec<Out> {
        if line.len() > 1024 {
            return Vec::new();
        }
        vec![Out::Client(line.to_string())]
    }
    defect(
        Defect {
            name: "lines over 1 KiB lost",
            from_checker,
            ..Defect::NONE
        },
        set(&["greeting.9"]),
        &[],
    );
}

/// Lines that end in CR LF are no defect the exam fails: it takes them, as goserver's
/// server does (the document says only "terminated by a new line").
#[test]
fn a_client_whose_lines_end_in_cr_lf_passes() {
    fn from_client(_: &mut Seen, line: &str) -> Vec<Out> {
        vec![Out::Checker(format!("{line}\r"))]
    }
    defect(
        Defect {
            name: "lines in CR LF",
            from_client,
            from_checker: on_to_client,
        },
        BTreeSet::new(),
        &[],
    );
}

// Bad clients: real processes (bash, for its /dev/tcp) that break what the exam
// expects of a client. Each case fails with a clear line, within its bound, and the
// exam stops every process it started.

/// The cases a bad client's run takes: one of the greeting, one of the turns, one of
/// the end.
const THREE: [&str; 3] = ["greeting.2", "turns.1", "end.1"];

/// How long a bad client has to connect.
const BAD_START: Duration = Duration::from_secs(3);

/// Runs the cases `ids` (all when empty) on the bad client `script` (bash, with
/// `{port}`); asserts that each failed with a line containing `says` within `bound`,
/// and that nothing it started is left; returns how long the run took.
fn bad_client(script: &str, ids: &[&str], says: &str, bound: Duration) -> Duration {
    let scratch = Scratch::new();
    let template = format!(
        "{} && exec bash -c '{}'",
        scratch.record_group(),
        script.replace('\'', r"'\''")
    );
    let began = Instant::now();
    let outcomes = exam(&template, BAD_START, |c| {
        ids.is_empty() || ids.contains(&c.id.as_str())
    });
    let took = began.elapsed();
    let expected = if ids.is_empty() { 40 } else { ids.len() };
    assert_eq!(outcomes.len(), expected);
    for outcome in &outcomes {
        let detail = outcome.verdict.detail();
        assert!(
            outcome.verdict.is_failure() && detail.contains(says),
            "{}: {} {detail}",
            outcome.case.id,
            outcome.verdict.word()
        );
        assert!(
            outcome.elapsed < bound,
            "{} took {:?}, over {bound:?}",
            outcome.case.id,
            outcome.elapsed
        );
    }
    assert_eq!(scratch.groups().len(), outcomes.len(), "a client per case");
    let left = left_running(&scratch.groups(), STOP_GRACE);
    assert!(left.is_empty(), "left running: {left:?}");
    eprintln!(
        "{script}: {} cases in {:.1} s, e.g. {}",
        outcomes.len(),
        took.as_secs_f64(),
        outcomes[0].verdict.detail()
    );
    took
}

/// What a case may take beyond the waits it is made of: starting and stopping the
/// client, on a busy machine.
const SLACK: Duration = Duration::from_secs(3);

#[test]
fn a_client_that_exits_at_once_fails_all_40_cases_quickly() {
    let took = bad_client(
        "exit 3",
        &[],
        "it exited (status 3) without connecting",
        SLACK,
    );
    assert!(took < Duration::from_secs(600), "{took:?}");
}

#[test]
fn a_client_that_never_connects_fails_after_the_start_timeout_and_is_stopped() {
    // A child of its own too: the stop reaches the whole process group.
    bad_client(
        "sleep 600 & sleep 600",
        &THREE,
        "no connection came",
        BAD_START + STOP_GRACE + SLACK,
    );
}

/// A new connection for each line: the exam answers the HANDSHAKE on the first and
/// waits there for SET_CONFIG, which comes on the second.
#[test]
fn a_client_that_connects_twice_fails_waiting_on_the_first_connection() {
    bad_client(
        "exec 3<>/dev/tcp/127.0.0.1/{port}; echo HANDSHAKE+Twice >&3; \
         read -r ack <&3; read -r request <&3; \
         exec 4<>/dev/tcp/127.0.0.1/{port}; echo SET_CONFIG+1+0+9 >&4; \
         sleep 600",
        &THREE,
        "nothing within 5 s; the client opened 1 more connection that the exam's server never took",
        ANSWER + STOP_GRACE + SLACK,
    );
}

#[test]
fn a_client_that_sends_megabytes_without_a_newline_fails_at_once() {
    bad_client(
        "exec 3<>/dev/tcp/127.0.0.1/{port}; head -c 8000000 /dev/zero | tr \"\\0\" x >&3; sleep 600",
        &THREE,
        "a line longer than 64 KiB",
        SLACK,
    );
}

#[test]
fn a_client_that_sends_binary_garbage_fails_every_case_at_once() {
    let took = bad_client(
        "exec 3<>/dev/tcp/127.0.0.1/{port}; printf \"\\377\\376\\000\\001\\200garbage\\n\" >&3; sleep 600",
        &[],
        "not UTF-8 text",
        SLACK,
    );
    assert!(took < Duration::from_secs(600), "{took:?}");
}

/// It connects and reads, and never sends or closes; it ignores SIGTERM too, so the
/// stop needs its SIGKILL.
#[test]
fn a_client_that_never_speaks_fails_after_the_answer_timeout_and_is_killed() {
    bad_client(
        "trap \"\" TERM; exec 3<>/dev/tcp/127.0.0.1/{port}; cat <&3 >/dev/null; sleep 600",
        &THREE,
        "nothing within 5 s",
        ANSWER + STOP_GRACE + SLACK,
    );
}

#[test]
fn a_client_that_closes_at_once_is_said_to_close_it() {
    bad_client(
        "exec 3<>/dev/tcp/127.0.0.1/{port}; exec 3>&-; sleep 600",
        &THREE,
        "the client closed the connection",
        SLACK,
    );
}

/// The check for leftovers is no formality: it sees a process left running in a group.
#[test]
fn left_running_sees_a_process_left_in_its_group() {
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new("sleep")
        .arg("30")
        .process_group(0)
        .spawn()
        .expect("sleep starts");
    let group = i32::try_from(child.id()).expect("a pid");
    let left = left_running(&[group], Duration::ZERO);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].contains("(sleep"), "{left:?}");
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(left_running(&[group], STOP_GRACE).is_empty());
}
