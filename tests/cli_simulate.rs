//! `deckspec simulate` and `deckspec merge` as users run them: summaries that do not depend on
//! threads or shards, argument errors (exact messages, exit 2), merge validation, `--verify`.

use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn deckspec(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A run that must fail with this exit code and exactly this message on stderr.
fn fails(args: &[&str], code: i32, message: &str) {
    let run = deckspec(args);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (code, message),
        "deckspec {args:?}; stdout:\n{}",
        run.stdout
    );
}

/// A run that must succeed with these lines in its output, in order.
fn succeeds(args: &[&str], lines: &[&str]) -> Run {
    let run = deckspec(args);
    assert_eq!(
        run.code, 0,
        "deckspec {args:?}:\n{}{}",
        run.stdout, run.stderr
    );
    let mut rest = run.stdout.as_str();
    for line in lines {
        match rest.find(line) {
            Some(i) => rest = &rest[i + line.len()..],
            None => panic!(
                "deckspec {args:?}: missing (in order) {line:?} in:\n{}",
                run.stdout
            ),
        }
    }
    run
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckspec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn summary(args: &[&str]) -> serde_json::Value {
    let run = succeeds(args, &[]);
    let mut json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    // Timing differs from run to run; everything else must not.
    for key in ["seconds", "games_per_second", "actions_per_second"] {
        assert!(json.get(key).is_some(), "the summary lacks {key}");
        json.as_object_mut().unwrap().remove(key);
    }
    json
}

#[test]
fn simulate_is_the_same_for_any_jobs_and_shards_merge_exactly() {
    let base = [
        "simulate",
        "cambia",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "7",
        "--bots",
        "random,expert,easy",
        "--json",
    ];
    let one = summary(&[&base[..], &["--jobs", "1"]].concat());
    let two = summary(&[&base[..], &["--jobs", "2"]].concat());
    assert_eq!(one, two);
    assert_eq!(one["games"], 40);
    assert!(one["actions"].as_u64().unwrap() > 0);

    let dir = scratch("shards");
    let mut files = Vec::new();
    for k in 1..=3 {
        let run = succeeds(&[&base[..], &["--shard", &format!("{k}/3")]].concat(), &[]);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, run.stdout).unwrap();
        files.push(file.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(summary(&args), one);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simulate_reports_bad_arguments() {
    fails(
        &["simulate", "cambia", "--bots", "expret"],
        2,
        "error: --bots: `expret` is not a seat kind: use random, easy, medium, hard or expert (did you mean `expert`?)\n",
    );
    fails(
        &["simulate", "cambia", "--shard", "4/3"],
        2,
        "error: --shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `4/3`\n",
    );
    fails(
        &["simulate", "cambia", "--house-rule", "penalty_draw_cuont=3"],
        2,
        "error: --house-rule: unknown house rule `penalty_draw_cuont` (did you mean `penalty_draw_count`?)\n",
    );
    assert_eq!(deckspec(&["simulate", "cambai"]).code, 2);
    succeeds(
        &[
            "simulate",
            "cambia",
            "--games",
            "5",
            "--house-rule",
            "penalty_draw_count=3",
        ],
        &["games: 5", "actions/s:", "ended by:"],
    );
}

#[test]
fn huge_studies_stream_their_games() {
    // A billion games in a hundred million shards: the last shard holds ten games. Listing the
    // study's games up front took minutes (and 4 GB without --shard); now it starts at once.
    succeeds(
        &[
            "simulate",
            "cambia",
            "--games",
            "1000000000",
            "--shard",
            "100000000/100000000",
            "--seed",
            "5",
        ],
        &["cambia: 10 games of 4 players", "games: 10\n"],
    );
}
