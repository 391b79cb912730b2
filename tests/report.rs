//! The HTML report opened in a real headless browser (Debian's chromium): its charts render.
//! `.ci/run` installs chromium, so in CI this test always runs; elsewhere it is skipped, loudly,
//! when no chromium is installed.

use std::path::PathBuf;
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("which").arg(name).output().ok()?;
            out.status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        })
}

#[test]
fn report_charts_render_in_a_headless_browser() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium (see .ci/run)"
        );
        eprintln!("SKIPPED: no chromium installed (apt-get install chromium)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("deckspec-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args([
            "simulate",
            "recall",
            "--players",
            "3",
            "--bots",
            "expert,easy,random",
            "--games",
            "30",
            "--report",
        ])
        .arg(&report)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("deckspec runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", report.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains(r#"data-charts="ok""#),
        "the charts' script did not finish:\n{dom}"
    );
    for chart in ["scores", "lengths", "seats", "levels"] {
        let marker = format!(r#"id="{chart}" data-rendered=""#);
        let at = dom
            .find(&marker)
            .unwrap_or_else(|| panic!("chart {chart} did not render"));
        let bars: usize = dom[at + marker.len()..]
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(bars > 0, "chart {chart} has no bars");
    }
    assert!(dom.matches("<rect").count() >= 10, "too few bars drawn");
    std::fs::remove_dir_all(&dir).ok();
}
