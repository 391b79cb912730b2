//! The browser table (`GET /` of `deckspec serve`) in headless Debian chromium: a person starts
//! a Cambia game against a bot and plays it to the end with mouse clicks; the page shows only
//! what the seat may know, and the result. Skipped (with a line) where no chromium is installed,
//! never in CI (`DECKSPEC_REQUIRE_CHROMIUM=1`).

#[path = "common/browser.rs"]
mod browser;
#[path = "common/server.rs"]
mod server;

use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn a_person_plays_a_game_against_a_bot_in_the_browser() {
    let Some(binary) = browser::chromium("the browser table test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = server::TestServer::start(&dir.path().join("tables.db"));
    let mut page = browser::Browser::start(&binary);
    page.navigate(&format!("http://{}/", server.addr));
    page.wait_for(
        "document.querySelectorAll('#variant option').length > 0",
        "the variant list",
        Duration::from_secs(20),
    );
    // Fill in the form as a person would, then click Start.
    page.eval(
        "(() => { const v = document.getElementById('variant'); v.value = 'cambia'; \
         v.dispatchEvent(new Event('change')); document.getElementById('seed').value = '7'; \
         document.getElementById('think').value = '0'; document.getElementById('name').value = 'ann'; })()",
    );
    page.click("#start");
    page.wait_for(
        "!!document.querySelector('#actions .action')",
        "the first legal actions",
        Duration::from_secs(20),
    );
    // Only what ann may know: two of her own cards, none of the bot's.
    let faces = page.eval(
        "[...document.querySelectorAll('.player')].map(p => [p.dataset.player, \
         p.querySelectorAll('.card:not(.back)').length, p.querySelectorAll('.card').length])",
    );
    assert_eq!(faces, json!([["ann", 2, 4], ["bot1", 0, 4]]));

    // Play by clicking: draw, then discard (skipping any power), calling Cambia after a few
    // turns; until the page shows the result.
    let start = Instant::now();
    let mut turns = 0;
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no result after 120 s; the log: {}",
            page.eval("document.getElementById('log').innerText")
        );
        let result = page.eval("document.getElementById('result').textContent");
        if result.as_str().is_some_and(|r| r.starts_with("Game over")) {
            break;
        }
        let actions = page
            .eval("[...document.querySelectorAll('#actions .action')].map(b => b.dataset.action)");
        let has = |name: &str| actions.as_array().unwrap().iter().any(|a| a == name);
        let choice = if has("cambia") && turns >= 3 {
            "cambia"
        } else if has("draw_stockpile") {
            turns += 1;
            "draw_stockpile"
        } else if has("discard") {
            "discard"
        } else if has("special skip") {
            "special skip"
        } else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let before = page.eval("document.getElementById('log').childNodes.length");
        page.click(&format!("#actions .action[data-action='{choice}']"));
        page.wait_for(
            &format!(
                "document.getElementById('log').childNodes.length > {before} || \
                 document.getElementById('refusal').textContent !== ''"
            ),
            &format!("an answer to {choice}"),
            Duration::from_secs(20),
        );
        let refusal = page.eval("document.getElementById('refusal').textContent");
        assert_eq!(refusal, json!(""), "clicking {choice} was refused");
        std::thread::sleep(Duration::from_millis(100));
    }
    let log = page.eval("document.getElementById('log').innerText");
    let log = log.as_str().unwrap();
    assert!(log.contains("private_draw_stockpile · "), "{log}");
    assert!(log.contains("player_cambia · "), "{log}");
    let result = page.eval("document.getElementById('result').textContent");
    assert!(
        result.as_str().unwrap().starts_with("Game over (cambia): "),
        "{result}"
    );
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-table.png");
    page.screenshot(&shot);
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "a real picture"
    );
}
