//! The HTML report opened in a real headless browser (Debian's chromium): its charts render, and
//! hostile names in a summary reach the page as text, never as markup.
//! `.ci/run` installs chromium and sets `DECKSPEC_REQUIRE_CHROMIUM=1`, so there these tests always
//! run; elsewhere they are skipped, with a line on the terminal, when no chromium is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::browser;

fn chromium() -> Option<PathBuf> {
    browser::chromium("the HTML report tests")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("deckspec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn deckspec(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("deckspec runs");
    assert!(
        out.status.success(),
        "deckspec {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The page's DOM after its scripts ran, as headless chromium dumps it.
fn render(browser: &Path, dir: &Path, page: &Path) -> String {
    let dom = Command::new(browser)
        .args(browser::HEADLESS_FLAGS)
        .args(["--virtual-time-budget=5000", "--dump-dom"])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&dom.stdout).into_owned()
}

/// The charts' script finished and every chart drew bars.
fn assert_charts(dom: &str) {
    assert_drawn(dom, &["scores", "lengths", "seats", "levels"]);
}

/// The page's script finished and each of these charts drew something.
fn assert_drawn(dom: &str, charts: &[&str]) {
    assert!(
        dom.contains(r#"data-charts="ok""#),
        "the charts' script did not finish:\n{dom}"
    );
    for chart in charts {
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
}

#[test]
fn report_charts_render_in_a_headless_browser() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("report");
    let report = dir.join("report.html");
    deckspec(&[
        "simulate",
        "recall",
        "--players",
        "3",
        "--bots",
        "expert,easy,random",
        "--games",
        "30",
        "--report",
        report.to_str().unwrap(),
    ]);
    let dom = render(&browser, &dir, &report);
    assert_charts(&dom);
    assert!(dom.matches("<rect").count() >= 10, "too few bars drawn");
    std::fs::remove_dir_all(&dir).ok();
}

const IMG: &str = "<img src=x onerror=document.title='pwned'>";

/// A `simulate --json` summary whose variant name, seat kinds and end reason are hostile: each
/// holds a later placeholder (`{{DATA}}`, `{{SUMMARY}}`), markup and a script end tag.
fn hostile_summary() -> String {
    let out = deckspec(&[
        "simulate",
        "cambia",
        "--players",
        "2",
        "--games",
        "12",
        "--json",
    ]);
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["variant"] = format!("{{{{DATA}}}}{IMG}").into();
    let reasons = json["end_reasons"].as_object_mut().unwrap();
    let (reason, count) = reasons
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
        .unwrap();
    reasons.remove(&reason);
    reasons.insert(format!("{{{{SUMMARY}}}}</script>{IMG}<!--\u{2028}"), count);
    json.to_string()
}

#[test]
fn hostile_summaries_reach_the_report_as_text() {
    let dir = scratch("hostile");
    let summary = dir.join("hostile.json");
    std::fs::write(&summary, hostile_summary()).unwrap();
    let report = dir.join("hostile.html");
    deckspec(&[
        "merge",
        summary.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(
        !page.contains("<img"),
        "markup from the data reached the page:\n{page}"
    );
    assert_eq!(page.matches("</script>").count(), 2, "{page}");
    assert!(page.contains("{{DATA}}&lt;img src=x"), "{page}");
    let Some(browser) = chromium() else { return };
    let dom = render(&browser, &dir, &report);
    assert_charts(&dom);
    assert!(
        !dom.contains("<img"),
        "an image element was created:\n{dom}"
    );
    assert!(!dom.contains("<title>pwned"), "a handler ran:\n{dom}");
    assert!(dom.contains("{{DATA}}&lt;img src=x"), "{dom}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn balance_and_tune_pages_draw_their_findings_in_a_headless_browser() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("balance-pages");
    let page = |name: &str| dir.join(format!("{name}.html"));
    let pages: [(&str, Vec<&str>, &[&str]); 4] = [
        (
            "study",
            vec!["balance", "cambia", "--games", "200"],
            &["shares", "lifts", "means", "rules"],
        ),
        (
            "compare",
            vec![
                "balance",
                "cambia",
                "--round",
                "100",
                "--budget",
                "200",
                "--compare",
                "--house-rule penalty_draw_count=2",
                "--house-rule penalty_draw_count=4",
            ],
            &["points", "relative"],
        ),
        (
            "skill",
            vec![
                "balance",
                "cambia",
                "--skill",
                "easy,expert",
                "--games",
                "40",
            ],
            &["matrix"],
        ),
        (
            "tune",
            vec![
                "tune",
                "no_skill",
                "--rules",
                "tests/balance/rules",
                "--players",
                "2",
                "--house-rule",
                "seat_0_percent=0..100/20",
                "--target",
                "seat-0-wins=0.4",
                "--round",
                "100",
                "--budget",
                "400",
            ],
            &["values"],
        ),
    ];
    for (name, args, charts) in pages {
        let file = page(name);
        let out = deckspec(&[&args[..], &["--report", file.to_str().unwrap()]].concat());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("report: {}", file.display())),
            "{text}"
        );
        let dom = render(&browser, &dir, &file);
        assert_drawn(&dom, charts);
        assert!(
            dom.matches("<circle").count() + dom.matches("<rect").count() >= 2,
            "{name}: {dom}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
