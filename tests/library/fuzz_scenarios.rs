//! Fuzzing scenario files on a fixed budget: structure-aware generators build files from the
//! grammar's forms, or take the repository's own `.feature` files, then mutate them (lines
//! deleted, duplicated or swapped, tokens inserted or replaced, unicode, huge numbers, deep lists,
//! CRLF or CR line ends, bytes that are not UTF-8). Every case goes the way `deckspec test` takes
//! a file: read (`suite::load_file`), parse, check against the bundled variants, and run the
//! scenarios that check cleanly; a file that parses is also formatted (`deckspec fmt`), which
//! must keep what it says and leave its own output as it is. They may fail; they must not panic or hang, every problem's span
//! must lie inside the file on character boundaries, and rendering every problem must work.
//!
//! The budget is a number of cases per property (`FUZZ_CASES` in CI, a quarter of it at a
//! developer's size: `tests/common/size.rs`); `PROPTEST_CASES=5000 cargo test --release --test
//! library fuzz_scenarios::` runs a longer campaign. Work per case is bounded by the generators' sizes and by the limits in `src/spec/limits.rs`, checked
//! below as counts (expanded steps), never as time.

use deckspec::scenarios::{ScriptProvider, render};
use deckspec::spec::ast::Span;
use deckspec::spec::diag::{FileDiagnostic, SourceLines};
use deckspec::spec::limits::MAX_EXPANDED_STEPS;
use deckspec::spec::parse::format::format_feature;
use deckspec::spec::parse::parse_feature;
use deckspec::spec::suite::{self, Filter, Outcome};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Cases per property in CI unless `PROPTEST_CASES` says otherwise (a quarter of it at a
/// developer's size).
const FUZZ_CASES: u32 = 512;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(crate::size::by_size(FUZZ_CASES / 4, FUZZ_CASES));
    Config {
        cases,
        // Shrinking a case that ran scenarios is slow; the failing input is printed anyway.
        max_shrink_iters: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled variants, loaded once for all cases.
fn provider() -> &'static ScriptProvider {
    static PROVIDER: OnceLock<ScriptProvider> = OnceLock::new();
    PROVIDER.get_or_init(|| ScriptProvider::new(&root().join("rules")))
}

/// The repository's scenario files: the seeds of the mutations.
fn seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut files = Vec::new();
        for dir in ["spec-tests", "tests/parse"] {
            collect(&root().join(dir), &mut files);
        }
        files.sort();
        let seeds: Vec<String> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect();
        assert!(seeds.len() > 20, "the seed files are there");
        seeds
    })
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
}

// ───────────────────────────── generators ─────────────────────────────

// Each vocabulary has good words (the scenario is likely to check cleanly and run) and bad ones
// (it should fail with a problem, not a panic); a word is bad one time in twenty-five.
const PLAYERS: (&[&str], &[&str]) = (&["ann", "bob"], &["cat", "Ann", "bøb", "_x", "2b"]);
// The other variants name other actions: the seeds cover them.
const VARIANTS: (&[&str], &[&str]) = (&["cambia"], &["recall", "dutch", "check", "cambai"]);
const CARDS: (&[&str], &[&str]) = (
    &[
        "7S", "KH", "AS", "10D", "QC", "3D", "9C", "4H", "2S", "10♥", "A♠", "5C", "8D", "JK",
    ],
    &["1S", "kh", "JKS", "ZZ"],
);
const COUNTS: (&[&str], &[&str]) = (
    &["0", "1", "2", "3", "4", "10", "40"],
    &[
        "64",
        "1024",
        "10001",
        "4294967296",
        "99999999999999999999999",
        "-1",
    ],
);
const SECONDS: (&[&str], &[&str]) = (
    &["1", "2.5", "0.001", "15", "86400"],
    &["0", "0.0005", "86400.001", "18446744073709551", "-1"],
);
const ACTIONS: (&[&str], &[&str]) = (
    &[
        "draw_stockpile",
        "discard",
        "replace slot 0",
        "snap slot 1",
        "special skip",
        "special swap_blind slot 0 and bob's slot 1",
        "cambia",
    ],
    &[
        "draw",
        "snapp 7S",
        "initial_peek slot 0 and slot 1",
        "snap slot 99999",
    ],
);
const EVENTS: (&[&str], &[&str]) = (
    &[
        "player_draw_stockpile",
        "player_snap_fail",
        "game_player_turn",
        "private_draw_stockpile",
        "player_discard",
    ],
    &["nope"],
);
const PHASES: (&[&str], &[&str]) = (&["awaiting_draw", "awaiting_discard"], &["nope"]);
const HOUSE: (&[&str], &[&str]) = (
    &[
        "use_jokers is false",
        "use_jokers is true",
        "penalty_draw_count is 3",
        "initial_peek_slots is [0, 1]",
        "compact_hands is false",
    ],
    &["nope is 1", "use_jokers is [[[[1]]]]"],
);
const LEVELS: (&[&str], &[&str]) = (&["easy", "hard", "expert"], &["hrad"]);
/// Tokens a mutation inserts or puts in place of a word.
const TOKENS: &[&str] = &[
    "<card>",
    "<who>",
    "<>",
    "|",
    "\"\"\"",
    "@tag",
    "#",
    ":",
    "'s",
    "’s",
    ",",
    "and",
    "_",
    "?",
    "é",
    "🂡",
    "\u{FEFF}",
    "\u{0301}",
    "\t",
    "JK",
    "1S",
    "99999999999999999999",
    "-0",
    "Scenario:",
    "Examples:",
    "Background:",
    "Given",
    "When",
    "Then",
    "And",
    "\"text\"",
    "\\",
];

fn pick(items: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(items).prop_map(str::to_string)
}

/// A word of a vocabulary: good 24 times in 25.
fn word(
    words: (&'static [&'static str], &'static [&'static str]),
) -> impl Strategy<Value = String> {
    prop_oneof![24 => pick(words.0), 1 => pick(words.1)]
}

/// A list of `n` words, joined by `, `.
fn list(
    words: (&'static [&'static str], &'static [&'static str]),
    n: std::ops::Range<usize>,
) -> impl Strategy<Value = String> {
    prop::collection::vec(word(words), n).prop_map(|v| v.join(", "))
}

/// A value: a number, word, card, text or list, sometimes deeply nested.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        word(COUNTS),
        word(CARDS),
        Just("true".to_string()),
        Just("\"a \\\" quote\"".to_string()),
        (0usize..40).prop_map(|d| format!("{}0{}", "[".repeat(d), "]".repeat(d))),
        list(COUNTS, 0..4).prop_map(|l| format!("[{l}]")),
    ]
}

/// The text of a Given step (after its keyword), from the grammar's forms.
fn given_text() -> BoxedStrategy<String> {
    prop_oneof![
        word(COUNTS).prop_map(|n| format!("the seed is {n}")),
        word(HOUSE).prop_map(|h| format!("the house rule {h}")),
        (word(PLAYERS), list(CARDS, 1..6)).prop_map(|(p, c)| format!("{p} holds {c}")),
        (word(PLAYERS), (0usize..80)).prop_map(|(p, n)| {
            let mut slots = vec!["_"; n];
            slots.push("7S");
            format!("{p} holds {}", slots.join(", "))
        }),
        list(CARDS, 1..4).prop_map(|c| format!("the draw pile is {c}")),
        word(COUNTS).prop_map(|n| format!("the draw pile has {n} cards")),
        list(CARDS, 0..3).prop_map(|c| if c.is_empty() {
            "the discard pile is empty".to_string()
        } else {
            format!("the discard pile is {c}")
        }),
        word(PLAYERS).prop_map(|p| format!("it is {p}'s turn")),
        (word(PLAYERS), word(PLAYERS), word(COUNTS))
            .prop_map(|(p, o, n)| format!("{p} knows {o}'s slot {n}")),
        (word(PLAYERS), word(ACTIONS)).prop_map(|(p, a)| format!("{p} did {a}")),
        (word(PLAYERS), word(LEVELS)).prop_map(|(p, l)| format!("{p} is a {l} bot")),
        value().prop_map(|v| format!("the house rule initial_peek_slots is {v}")),
    ]
    .boxed()
}

/// The text of a When step.
fn when_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (word(PLAYERS), word(ACTIONS)).prop_map(|(p, a)| format!("{p} does {a}")),
        1 => word(SECONDS).prop_map(|n| format!("{n} seconds pass")),
        1 => Just("time runs out".to_string()),
        1 => word(PLAYERS).prop_map(|p| format!("{p}'s bot acts")),
    ]
    .boxed()
}

/// The text of a Then step.
fn then_text() -> BoxedStrategy<String> {
    prop_oneof![
        word(PHASES).prop_map(|p| format!("the phase is {p}")),
        Just("the action is rejected".to_string()),
        (word(PLAYERS), word(COUNTS), word(CARDS))
            .prop_map(|(p, n, c)| format!("{p}'s slot {n} is {c}")),
        (word(EVENTS), word(COUNTS), value())
            .prop_map(|(e, n, v)| format!("everyone sees {e} with user {v} {n} times")),
        word(EVENTS).prop_map(|e| format!("everyone sees {e}")),
        (word(PLAYERS), word(EVENTS)).prop_map(|(p, e)| format!("{p} does not see {e}")),
        (word(PLAYERS), value()).prop_map(|(p, v)| format!("{p}'s locked is {v}")),
        Just("the game is not over".to_string()),
        list(PLAYERS, 1..3).prop_map(|p| format!("{p} win")),
        (word(PLAYERS), list(CARDS, 1..5)).prop_map(|(p, c)| format!("{p} holds {c}, ?")),
        (word(PLAYERS), word(COUNTS)).prop_map(|(p, n)| format!("{p} holds {n} cards")),
        word(COUNTS).prop_map(|n| format!("the draw pile has {n} cards")),
        word(CARDS).prop_map(|c| format!("the discard pile top is {c}")),
        (word(PLAYERS), word(CARDS)).prop_map(|(p, c)| format!(
            "{p} receives:\n      \"\"\"\n      {{\"type\": \"private_draw_stockpile\", \"card\": {{\"id\": \"{{{c}}}\"}}}}\n      \"\"\""
        )),
    ]
    .boxed()
}

/// Steps of one kind: the first with the kind's keyword, the others with `And` or `But` (and one
/// time in twenty a keyword that is wrong or misspelled).
fn steps_of(
    keyword: &'static str,
    text: BoxedStrategy<String>,
    n: std::ops::Range<usize>,
) -> impl Strategy<Value = String> {
    let other = prop_oneof![
        18 => Just("And"),
        1 => Just("But"),
        1 => prop::sample::select(&["Given", "When", "Then", "Givn", "And"][..]),
    ];
    prop::collection::vec((other, text), n).prop_map(move |steps| {
        let mut out = String::new();
        for (i, (other, text)) in steps.into_iter().enumerate() {
            let keyword = if i == 0 { keyword } else { other };
            out.push_str(&format!("    {keyword} {text}\n"));
        }
        out
    })
}

/// The steps after the game step (`first` is the keyword of the first Given: `And` after the game
/// step, `Given` when a Background started the game): Givens, then Whens and Thens, sometimes a
/// house-rules table.
fn steps(first: &'static str) -> impl Strategy<Value = String> {
    (
        steps_of(first, given_text(), 0..4),
        prop::option::of(word(HOUSE).prop_map(|h| {
            let (name, value) = h.split_once(" is ").unwrap_or((h.as_str(), ""));
            format!(
                "    And the house rules:\n      | name | value |\n      | {name} | {value} |\n"
            )
        })),
        prop::collection::vec(
            (
                steps_of("When", when_text(), 1..3),
                steps_of("Then", then_text(), 0..3),
            ),
            0..3,
        ),
    )
        .prop_map(|(givens, table, rounds)| {
            let mut out = givens;
            out.push_str(&table.unwrap_or_default());
            for (whens, thens) in rounds {
                out.push_str(&whens);
                out.push_str(&thens);
            }
            out
        })
}

/// A scenario or an outline (whose steps use `<who>` and `<card>`), with tags; its first step
/// starts the game unless a Background does.
fn scenario(game: bool) -> impl Strategy<Value = String> {
    let start = move |variant: &str| {
        if game {
            format!("    Given a {variant} game with players ann, bob\n")
        } else {
            String::new()
        }
    };
    let plain = (
        prop::option::of(pick(&["@fast", "@rule:CAM-SNAP-3", "@skip", "@a @b"])),
        word(VARIANTS),
        steps(if game { "And" } else { "Given" }),
    )
        .prop_map(move |(tag, variant, steps)| {
            let mut out = String::new();
            if let Some(tag) = tag {
                out.push_str(&format!("  {tag}\n"));
            }
            out.push_str(&format!("  Scenario: s\n{}{steps}", start(&variant)));
            out
        });
    let outline = (
        steps_of("Then", then_text(), 0..3),
        prop::collection::vec((word(PLAYERS), word(CARDS)), 0..4),
    )
        .prop_map(move |(steps, rows)| {
            let mut out = format!(
                "  Scenario Outline: <who> plays <card>\n{}    Given <who> holds <card>, 9C\n    When <who> does snap slot 0\n",
                start("cambia")
            );
            out.push_str(&steps);
            out.push_str("\n    Examples:\n      | who | card |\n");
            for (who, card) in rows {
                out.push_str(&format!("      | {who} | {card} |\n"));
            }
            out
        });
    prop_oneof![3 => plain, 1 => outline]
}

/// A whole file from the grammar's forms; with a Background, it starts the game.
fn generated_file() -> impl Strategy<Value = String> {
    any::<bool>()
        .prop_flat_map(|background| {
            (
                Just(background),
                any::<bool>(),
                steps_of("And", given_text(), 0..3),
                prop::collection::vec(scenario(!background), 1..4),
                any::<bool>(),
            )
        })
        .prop_map(|(background, tagged, givens, scenarios, rule)| {
            let mut out = String::new();
            if tagged {
                out.push_str("@cambia\n");
            }
            out.push_str("Feature: generated\n  Some description.\n\n");
            if background {
                out.push_str("  Background:\n    Given a cambia game with players ann, bob\n");
                out.push_str(&givens);
            }
            for (i, scenario) in scenarios.iter().enumerate() {
                if rule && i == 1 {
                    out.push_str("  Rule: a rule\n");
                }
                out.push_str(scenario);
                out.push('\n');
            }
            out
        })
}

/// One change to a file's lines.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    /// Insert a token at a character position of a line.
    Insert(usize, usize, &'static str),
    /// Replace the n-th word of a line by a token.
    Replace(usize, usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0usize..400;
    prop_oneof![
        at.clone().prop_map(Mutation::Delete),
        at.clone().prop_map(Mutation::Duplicate),
        (at.clone(), at.clone()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (at.clone(), 0usize..80, prop::sample::select(TOKENS))
            .prop_map(|(l, c, t)| Mutation::Insert(l, c, t)),
        (at, 0usize..8, prop::sample::select(TOKENS))
            .prop_map(|(l, w, t)| Mutation::Replace(l, w, t)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for m in mutations {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match *m {
            Mutation::Delete(i) => {
                lines.remove(i % n);
            }
            Mutation::Duplicate(i) => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
            }
            Mutation::Swap(a, b) => lines.swap(a % n, b % n),
            Mutation::Insert(i, c, token) => {
                let line = &mut lines[i % n];
                let at = line
                    .char_indices()
                    .map(|(at, _)| at)
                    .nth(c)
                    .unwrap_or(line.len());
                line.insert_str(at, token);
            }
            Mutation::Replace(i, w, token) => {
                let line = &mut lines[i % n];
                let words: Vec<&str> = line.split(' ').collect();
                if !words.is_empty() {
                    let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                    let k = w % words.len();
                    words[k] = token.to_string();
                    *line = words.join(" ");
                }
            }
        }
    }
    lines.join("\n")
}

/// Line ends and bytes: `\n`, `\r\n` or a lone `\r`, and maybe bytes that are not UTF-8.
fn encode(text: &str, ends: u8, bad_bytes: &[(usize, u8)]) -> Vec<u8> {
    let end = match ends % 3 {
        0 => "\n",
        1 => "\r\n",
        _ => "\r",
    };
    let mut bytes = text.replace('\n', end).into_bytes();
    for &(at, byte) in bad_bytes {
        let at = if bytes.is_empty() {
            0
        } else {
            at % bytes.len()
        };
        bytes.insert(at, byte);
    }
    bytes
}

/// A mutated file: a seed from the repository or a generated one, with mutations and encoding.
fn mutated_file() -> impl Strategy<Value = Vec<u8>> {
    let base = prop_oneof![
        (0usize..10_000).prop_map(|i| seeds()[i % seeds().len()].clone()),
        generated_file(),
    ];
    (
        base,
        prop::collection::vec(mutation(), 0..8),
        any::<u8>(),
        prop::collection::vec((any::<usize>(), 0x80u8..=0xff), 0..2),
    )
        .prop_map(|(base, mutations, ends, bad)| encode(&mutate(&base, &mutations), ends, &bad))
}

// ───────────────────────────── the checks ─────────────────────────────

/// Each case goes through a file of its own, as `deckspec test` reads it.
fn case_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("deckspec-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let thread = format!("{:?}", std::thread::current().id());
    let name: String = thread.chars().filter(char::is_ascii_digit).collect();
    dir.join(format!("case-{name}.feature"))
}

fn assert_span_inside(src: &str, span: Span, what: &dyn std::fmt::Debug) {
    assert!(
        span.start <= span.end
            && span.end <= src.len()
            && src.is_char_boundary(span.start)
            && src.is_char_boundary(span.end),
        "span {span:?} of {what:?} is not inside the file ({} bytes):\n{src:?}",
        src.len()
    );
}

/// Every span in a parsed feature (from its debug form), to check they are inside the file.
fn feature_spans(debug: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut rest = debug;
    while let Some(i) = rest.find("Span { start: ") {
        rest = &rest[i + 14..];
        let start = rest[..rest.find(',').unwrap_or(0)].parse().unwrap_or(0);
        let j = rest.find("end: ").map_or(0, |j| j + 5);
        rest = &rest[j..];
        let end = rest[..rest.find(' ').unwrap_or(0)].parse().unwrap_or(0);
        out.push(Span::new(start, end));
    }
    out
}

/// Read, parse, check and run one case; panics (the property fails) on a broken invariant.
fn check_case(bytes: &[u8]) {
    let path = case_file();
    std::fs::write(&path, bytes).expect("a writable case file");
    let shown = path.display().to_string();
    let loaded = suite::load_file(&path);
    let result = match loaded.problem {
        Some(problem) => {
            assert!(
                std::str::from_utf8(bytes).is_err() || bytes.len() > 4 * 1024 * 1024,
                "a readable UTF-8 file was refused: {problem:?}"
            );
            suite::FileResult::not_run(&shown, loaded.src, vec![problem])
        }
        None => {
            let src = loaded.src.as_str();
            if let Ok(feature) = parse_feature(src) {
                for span in feature_spans(&format!("{feature:?}")) {
                    assert_span_inside(src, span, &"an AST span");
                }
                // `deckspec fmt`: a file that parses formats to the same scenarios, and once
                // formatted stays as it is.
                let once = format_feature(src).unwrap_or_else(|e| panic!("{e}: {src:?}"));
                assert_eq!(format_feature(&once).as_ref(), Ok(&once), "{src:?}");
            }
            let (_, scenarios, _) = suite::check_file(src, provider());
            let steps: usize = scenarios.iter().map(|s| s.steps.len()).sum();
            assert!(steps <= MAX_EXPANDED_STEPS, "{steps} expanded steps");
            // Runs what checks cleanly; a failure is data, not a panic.
            suite::run_file(&shown, loaded.src.clone(), provider(), &Filter::default())
        }
    };
    let src = result.src.as_str();
    let lines = Arc::new(SourceLines::new(src));
    for problem in &result.problems {
        assert_span_inside(src, problem.span, problem);
        let d =
            FileDiagnostic::with_lines(&shown, result.src.clone(), lines.clone(), problem.clone());
        let _ = d.short();
        let _ = render(&d);
    }
    for scenario in &result.scenarios {
        if let Outcome::Failed(f) = &scenario.outcome {
            assert_span_inside(src, f.span, f);
            let _ = render(&result.failure_diagnostic(f));
        }
    }
    let _ = deckspec::spec::junit::junit(std::slice::from_ref(&result));
}

proptest! {
    #![proptest_config(config())]

    /// Files built from the grammar's forms, unchanged: many check cleanly and run.
    #[test]
    fn generated_files_parse_check_and_run_cleanly(file in generated_file()) {
        check_case(file.as_bytes());
    }

    /// The repository's files and generated ones, mutated and re-encoded.
    #[test]
    fn mutated_files_parse_check_and_run_cleanly(bytes in mutated_file()) {
        check_case(&bytes);
    }
}

/// Every seed, as it is and with each kind of line end: the starting points of the mutations.
#[test]
fn every_seed_with_every_line_end() {
    for seed in seeds() {
        for ends in 0..3 {
            check_case(&encode(seed, ends, &[]));
        }
    }
}
