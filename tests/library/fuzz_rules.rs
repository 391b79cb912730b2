//! Fuzzing the rule files: the bundled variants' `variant.yaml` mutated (lines deleted,
//! duplicated, swapped; values replaced by hostile ones) and their scripts given hostile
//! statements at the top of a hook. Whatever comes out must load or fail with an error that
//! points inside the file, and a loaded variant must play (faults allowed) without a panic, with
//! a fault leaving the game byte-identical.
//!
//! A fixed budget by default; `PROPTEST_CASES=2000 cargo test --release --test library fuzz_rules::` runs
//! longer.

use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, RuleError};
use deckspec::script::{Variant, VariantError, variant_names};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// The bundled variants, as found in `rules/` (a new one is fuzzed with no edit here).
fn variants() -> Vec<String> {
    variant_names(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
}

/// Values a careless or hostile designer might write anywhere in a variant file.
const HOSTILE_VALUES: &[&str] = &[
    "-1",
    "0",
    "1e300",
    "-9223372036854775808",
    "100000000000",
    "18446744073709551616",
    "/etc/passwd",
    "../../../../etc/passwd",
    "/dev/zero",
    "\"\"",
    "null",
    "~",
    "!delete",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "{a: {b: {c: {d: 1}}}",
    "&anchor x",
    "*anchor",
    "\"bøb ✓ \\u0000\"",
    "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]",
    "true",
    "'it''s'",
];

/// Statements put at the top of a hook: each exercises a limit or a misuse.
const HOSTILE_STATEMENTS: &[&str] = &[
    "let n = 0; loop { n += 1; }",
    "let a = []; a.pad(20000, 0);",
    "let s = \"x\"; loop { s += s; }",
    "for i in 0..2000 { game.broadcast(game.phase, #{}); }",
    "game.to_slot(game.top(\"stockpile\"), game.player_at(0), 1000000000);",
    "game.to_slot(game.top(\"deck\"), game.player_at(0), -1);",
    "game.set_timer(\"turn\", 0);",
    "game.set_timer(\"draw\", 1e300);",
    "game.end([game.player_at(0), game.player_at(0)], \"x\");",
    "let a = []; for i in 0..40 { a = [a]; } game.set(game.phase, a);",
    "import \"../../../../etc/passwd\" as p;",
    "game.set_phase(\"nowhere\");",
    "refuse(\"no\");",
    "game.swap(game.top(\"discardpile\"), game.top(\"discardpile\"));",
    "game.random(0);",
    "game.deal(\"stockpile\", 1000);",
    "throw \"a script error\";",
    "let x = 1 / 0;",
];

/// A rules folder holding copies of every bundled variant, one of them changed.
fn rules_with(variant: &str, file: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let rules = dir.path().join("rules");
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for name in variant_names(&bundled) {
        let to = rules.join(&name);
        std::fs::create_dir_all(&to).expect("a variant folder");
        for entry in std::fs::read_dir(bundled.join(&name)).expect("a bundled variant") {
            let entry = entry.expect("a file");
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("a copy");
        }
    }
    std::fs::write(rules.join(variant).join(file), text).expect("the changed file");
    (dir, rules)
}

/// A load error must point inside the file it names.
fn check_error(error: &VariantError) {
    if let VariantError::Config(d) | VariantError::Script(d) = error {
        let text = std::fs::read_to_string(&d.path).unwrap_or_default();
        let lines = text.lines().count().max(1);
        assert!(
            d.line >= 1 && d.line <= lines + 1,
            "{}: line {} is outside the file ({lines} lines)",
            d.short(),
            d.line
        );
        let span = d.span.offset() + d.span.len();
        assert!(span <= text.len(), "{}: span past the end", d.short());
        assert!(text.is_char_boundary(d.span.offset()), "{}", d.short());
    }
}

/// Play a few random steps; a fault must leave the game byte-identical, and stops the game.
fn play_a_little(variant: &Variant, seed: u64) {
    let names = vec!["ann".to_string(), "bob".to_string(), "cy".to_string()];
    let Ok(mut game) = Game::new(variant.table().clone(), names, seed, &[]) else {
        return;
    };
    let before = serde_json::to_string(&game.save()).expect("a game serializes");
    if let Err(e) = game.start(variant) {
        assert!(matches!(e, RuleError::Fault { .. } | RuleError::Refused(_)));
        assert_eq!(
            serde_json::to_string(&game.save()).unwrap(),
            before,
            "a failed setup changed the game"
        );
        return;
    }
    let mut agent = RandomAgent::new(seed);
    for _ in 0..30 {
        let before = serde_json::to_string(&game.save()).expect("a game serializes");
        match agent.step(&mut game, variant) {
            Ok(Step::Stuck) => return,
            Ok(_) => game
                .state
                .check_conservation()
                .expect("cards are conserved"),
            Err(_) => {
                assert_eq!(
                    serde_json::to_string(&game.save()).unwrap(),
                    before,
                    "a fault changed the game"
                );
                return;
            }
        }
    }
}

fn mutate_lines(text: &str, ops: &[(u8, usize, usize)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for &(op, a, b) in ops {
        if lines.is_empty() {
            break;
        }
        let (a, b) = (a % lines.len(), b % lines.len());
        match op % 4 {
            0 => {
                lines.remove(a);
            }
            1 => {
                let line = lines[a].clone();
                lines.insert(b, line);
            }
            2 => lines.swap(a, b),
            _ => {
                // Replace the value after a key's colon with a hostile one.
                let value = HOSTILE_VALUES[b % HOSTILE_VALUES.len()];
                if let Some(i) = lines[a].find(": ") {
                    lines[a] = format!("{}: {value}", &lines[a][..i]);
                } else {
                    lines[a] = format!("{}{value}", lines[a]);
                }
            }
        }
    }
    lines.join("\n") + "\n"
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_variant_files_load_or_fail_at_a_line(
        variant in prop::sample::select(variants()),
        ops in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..6),
        seed in any::<u64>(),
    ) {
        let name = variant.as_str();
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(name);
        let text = std::fs::read_to_string(bundled.join("variant.yaml")).unwrap();
        let (_dir, rules) = rules_with(name, "variant.yaml", &mutate_lines(&text, &ops));
        match Variant::load_named(&rules, name) {
            Err(e) => check_error(&e),
            Ok(v) => play_a_little(&v, seed),
        }
    }

    #[test]
    fn hostile_statements_in_hooks_fail_cleanly(
        variant in prop::sample::select(variants()),
        statement in 0usize..HOSTILE_STATEMENTS.len(),
        hook in any::<usize>(),
        seed in 0u64..1000,
    ) {
        let name = variant.as_str();
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(name);
        let script_name = format!("{name}.rhai");
        let text = std::fs::read_to_string(bundled.join(&script_name)).unwrap();
        // Put the statement at the top of the body of one of the script's functions.
        let starts: Vec<usize> = text.match_indices("\nfn ").map(|(i, _)| i + 1).collect();
        prop_assume!(!starts.is_empty());
        let start = starts[hook % starts.len()];
        let body = start + text[start..].find('{').expect("a function body") + 1;
        let changed = format!(
            "{}\n    {}\n{}",
            &text[..body],
            HOSTILE_STATEMENTS[statement],
            &text[body..]
        );
        let (_dir, rules) = rules_with(name, &script_name, &changed);
        match Variant::load_named(&rules, name) {
            Err(e) => check_error(&e),
            Ok(v) => play_a_little(&v, seed),
        }
    }
}
