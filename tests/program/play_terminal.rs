//! `deckspec play` at a real terminal: run under tmux, typed at with `send-keys`, read with
//! `capture-pane`: the hand, `help`, a refusal, tab completion and history. `.ci/run` installs
//! tmux and sets `DECKSPEC_REQUIRE_TMUX=1`; elsewhere the test is skipped, with a line saying so,
//! when tmux is missing.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The pane's text once it contains `want` (polling, at most 20 seconds).
fn wait_for(session: &str, want: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session, "-S", "-200"]);
        if screen.contains(want) {
            return screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the terminal never showed {want:?}:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn play_at_a_terminal_shows_the_hand_help_refusals_and_completes_commands() {
    if Command::new("tmux").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("DECKSPEC_REQUIRE_TMUX").is_none(),
            "DECKSPEC_REQUIRE_TMUX is set but tmux is not installed (apt-get install tmux)"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the terminal play test: no tmux installed (apt-get install tmux)"
        );
        return;
    }
    let session = format!("deckspec-play-{}", std::process::id());
    let command = format!(
        "cd {} && {} play cambia --seed 0; sleep 30",
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_BIN_EXE_deckspec")
    );
    let started = Command::new("tmux")
        .args(["new-session", "-d", "-s", &session, "-x", "160", "-y", "50"])
        .arg(&command)
        .status()
        .expect("tmux starts");
    assert!(started.success());
    let cleanup = || {
        tmux(&["kill-session", "-t", &session]);
    };
    let result = std::panic::catch_unwind(|| {
        // Seed 0: you hold 4C and 5D in slots 0 and 1, seen at the deal.
        let screen = wait_for(&session, "ann          0:?? 1:?? 2:?? 3:??");
        assert!(
            screen.contains("you          0:4C 1:5D 2:?? 3:??"),
            "{screen}"
        );
        tmux(&["send-keys", "-t", &session, "help", "Enter"]);
        let screen = wait_for(&session, "also: wait [SECONDS], undo, help, quit");
        assert!(screen.contains("  draw_stockpile"), "{screen}");
        tmux(&["send-keys", "-t", &session, "replace slot 0", "Enter"]);
        wait_for(&session, "refused: you have not drawn a card");
        // Tab completes the only legal command starting `draw_st`.
        tmux(&["send-keys", "-t", &session, "draw_st", "Tab", "Enter"]);
        let screen = wait_for(&session, "private_draw_stockpile");
        assert!(screen.contains("> draw_stockpile"), "{screen}");
        tmux(&["send-keys", "-t", &session, "quit", "Enter"]);
        wait_for(&session, "game not finished");
    });
    cleanup();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
