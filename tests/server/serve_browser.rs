//! The browser table (`GET /` of `deckspec serve`) in headless Debian chromium: a person starts
//! a Cambia game against a bot and plays it to the end with mouse clicks, reloading the page on
//! the way; the page shows only what the seat may know, hands as a grid, readable events and
//! variables, the log again after a reload, and the result with every player's score. Every
//! variant the server offers is played to its end the same way (the first two at a developer's
//! size: `tests/common/size.rs`). Skipped (with a line) where no
//! chromium is installed, never in CI (`DECKSPEC_REQUIRE_CHROMIUM=1`).

use crate::common::browser;
use crate::common::server;

use serde_json::{Value as Json, json};
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(20);

/// Open the page, fill in the form as a person would (variant, seed, no think delay, name
/// `ann`) and click Start; returns once the table shows.
fn start_game(page: &mut browser::Browser, addr: &str, variant: &str, seed: u64, fresh: u32) {
    // A query string of its own: a new document, not a jump within the last one.
    page.navigate(&format!("http://{addr}/?game={fresh}"));
    page.wait_for(
        "document.querySelectorAll('#variant option').length > 0",
        "the variant list",
        PATIENCE,
    );
    page.eval(&format!(
        "(() => {{ const v = document.getElementById('variant'); v.value = {variant}; \
         v.dispatchEvent(new Event('change')); document.getElementById('seed').value = '{seed}'; \
         document.getElementById('think').value = '0'; document.getElementById('name').value = 'ann'; }})()",
        variant = json!(variant)
    ));
    page.click("#start");
    page.wait_for(
        "typeof view !== 'undefined' && !!view && document.querySelectorAll('.player').length > 0",
        "the table",
        PATIENCE,
    );
}

/// Reload the page (a reconnect) and wait for its first view.
fn reload(page: &mut browser::Browser) {
    page.call("Page.reload", json!({}));
    std::thread::sleep(Duration::from_millis(300));
    page.wait_for(
        "document.readyState === 'complete' && typeof view !== 'undefined' && !!view && \
         document.querySelectorAll('.player').length > 0",
        "the table after the reload",
        PATIENCE,
    );
}

/// Click the element's centre with the mouse, if something matches the selector now.
fn try_click(page: &mut browser::Browser, selector: &str) -> bool {
    let quoted = serde_json::to_string(selector).unwrap();
    let rect = page.eval(&format!(
        "(() => {{ const e = document.querySelector({quoted}); if (!e) return null; \
         e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
         return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    let (Some(x), Some(y)) = (rect[0].as_f64(), rect[1].as_f64()) else {
        return false;
    };
    for kind in ["mousePressed", "mouseReleased"] {
        page.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
        );
    }
    true
}

fn text_of(page: &mut browser::Browser, expression: &str) -> String {
    page.eval(expression)
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The log's lines other than refusals and connection notes (which quote the server).
fn event_lines(page: &mut browser::Browser) -> Vec<String> {
    let lines = page
        .eval("[...document.querySelectorAll('#log > div:not(.error)')].map(d => d.textContent)");
    serde_json::from_value(lines).unwrap()
}

/// Every hand of four lies as two rows of two, on the screen too.
fn assert_hands_are_grids(page: &mut browser::Browser) {
    let hands = page.eval(
        "[...document.querySelectorAll('.player')].map(p => { const h = p.querySelector('.hand'); \
         const cards = [...h.children].map(c => c.getBoundingClientRect()); \
         return [p.dataset.player, cards.length, h.dataset.rows, h.dataset.columns, \
                 new Set(cards.map(r => Math.round(r.top))).size, \
                 new Set(cards.map(r => Math.round(r.left))).size]; })",
    );
    for hand in hands.as_array().unwrap() {
        if hand[1] == 4 {
            assert_eq!(
                &hand.as_array().unwrap()[2..],
                [json!("2"), json!("2"), json!(2), json!(2)],
                "{hand}"
            );
        }
    }
}

/// Event lines and variables read as words: no raw names (`player_draw_stockpile`,
/// `drawn_from_stockpile`), no JSON, no `false`.
fn assert_readable(page: &mut browser::Browser) {
    for line in event_lines(page) {
        assert!(
            !line.contains('_') && !line.contains('{') && !line.contains('"'),
            "a raw line in the log: {line}"
        );
    }
    let vars = text_of(
        page,
        "document.getElementById('vars').textContent + ' | ' + \
         [...document.querySelectorAll('.player .name')].map(n => n.textContent).join(' | ')",
    );
    assert!(
        !vars.contains('_') && !vars.contains("false") && !vars.contains('{'),
        "raw variables: {vars}"
    );
}

/// The game is over: the status says so, and the banner names the winners and shows every
/// player's score from the event that ended it (as the log's line for it says).
fn assert_result_banner(page: &mut browser::Browser) {
    let outcome = page.eval("view.outcome");
    let winners: Vec<String> = serde_json::from_value(outcome["winners"].clone()).unwrap();
    let status = text_of(page, "document.getElementById('status').textContent");
    assert!(
        status.starts_with("Game over: ") && !status.contains("turn"),
        "{status}"
    );
    let won = if winners.is_empty() {
        "nobody won".to_string()
    } else {
        format!("{} won", winners.join(" and "))
    };
    assert!(status.contains(&won), "{status} / {winners:?}");
    let heading = text_of(page, "document.querySelector('#result h2').textContent");
    assert_eq!(
        heading,
        format!(
            "Game over ({}): {won}",
            outcome["reason"].as_str().unwrap().replace('_', " ")
        )
    );
    assert_eq!(
        page.eval("document.getElementById('result').hidden"),
        json!(false)
    );
    assert_eq!(
        page.eval("document.querySelector('#result thead').textContent"),
        json!("playerscoreresult"),
        "the scores come from the end event"
    );
    let rows = page.eval(
        "[...document.querySelectorAll('#result tbody tr')].map(r => [r.dataset.player, \
         r.querySelector('.score').textContent, r.classList.contains('winner'), r.lastChild.textContent])",
    );
    let players = page.eval("view.players.map(p => p.id)");
    assert_eq!(
        rows.as_array().unwrap().len(),
        players.as_array().unwrap().len()
    );
    let lines = event_lines(page);
    let end_line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" won; scores "))
        .unwrap_or_else(|| panic!("no line of the end with the scores: {lines:#?}"));
    for row in rows.as_array().unwrap() {
        let name = row[0].as_str().unwrap();
        let score = row[1].as_str().unwrap();
        assert!(score.parse::<i64>().is_ok(), "{name}'s score: {score:?}");
        assert!(
            end_line.contains(&format!("{name} {score}")),
            "{end_line} / {row}"
        );
        let winner = winners.iter().any(|w| w == name);
        assert_eq!(row[2], json!(winner), "{row}");
        assert_eq!(row[3], json!(if winner { "winner" } else { "" }), "{row}");
    }
}

#[test]
fn a_person_plays_a_game_against_a_bot_in_the_browser() {
    let Some(binary) = browser::chromium("the browser table test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = server::TestServer::start(&dir.path().join("tables.db"));
    let mut page = browser::Browser::start(&binary);
    start_game(&mut page, &server.addr, "cambia", 7, 0);
    page.wait_for(
        "!!document.querySelector('#actions .action')",
        "the first legal actions",
        PATIENCE,
    );
    // Only what ann may know: two of her own cards, none of the bot's.
    let faces = page.eval(
        "[...document.querySelectorAll('.player')].map(p => [p.dataset.player, \
         p.querySelectorAll('.card:not(.back)').length, p.querySelectorAll('.card').length])",
    );
    assert_eq!(faces, json!([["ann", 2, 4], ["bot1", 0, 4]]));
    assert_hands_are_grids(&mut page);
    let joined = event_lines(&mut page);
    assert!(
        joined[0].starts_with("joined table ")
            && joined[0].contains(" as ann: phase awaiting draw, your turn"),
        "{joined:#?}"
    );

    // Play by clicking: draw, then discard (skipping any power), calling Cambia after a few
    // turns; until the page shows the result. After two turns, reload the page.
    let start = Instant::now();
    let mut turns = 0;
    let mut reloaded = false;
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no result after 120 s; the log: {}",
            page.eval("document.getElementById('log').innerText")
        );
        if page.eval("document.getElementById('result').hidden") == json!(false) {
            break;
        }
        let actions = page
            .eval("[...document.querySelectorAll('#actions .action')].map(b => b.dataset.action)");
        let has = |name: &str| actions.as_array().unwrap().iter().any(|a| a == name);
        if turns == 2 && !reloaded && has("draw_stockpile") {
            reloaded = true;
            let before = text_of(&mut page, "document.getElementById('log').innerText");
            reload(&mut page);
            page.wait_for(
                "!!document.querySelector('#actions .action')",
                "the legal actions after the reload",
                PATIENCE,
            );
            let after = text_of(&mut page, "document.getElementById('log').innerText");
            assert!(
                after.starts_with(&before),
                "the log before the reload:\n{before}\nafter:\n{after}"
            );
            assert!(
                after[before.len()..].contains("reconnected to table ")
                    && after.contains(
                        "earlier lines restored from this tab; now phase awaiting draw, your turn"
                    ),
                "{after}"
            );
            assert_eq!(
                page.eval("document.querySelectorAll('.player .card').length"),
                json!(8),
                "the hands after the reload"
            );
            continue;
        }
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
            PATIENCE,
        );
        let refusal = page.eval("document.getElementById('refusal').textContent");
        assert_eq!(refusal, json!(""), "clicking {choice} was refused");
        assert_readable(&mut page);
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(reloaded);
    // Events in words, as the terminal's `deckspec play` would have them.
    let lines = event_lines(&mut page);
    let has_line = |pred: &dyn Fn(&str) -> bool| lines.iter().any(|l| pred(l));
    assert!(
        has_line(&|l| l.starts_with("your initial cards: ")),
        "{lines:#?}"
    );
    assert!(
        has_line(&|l| l.starts_with("you draw ") && l.ends_with(" from the stockpile")),
        "{lines:#?}"
    );
    assert!(
        has_line(&|l| l.starts_with("ann draws ") && l.contains(" from the stockpile (")),
        "{lines:#?}"
    );
    assert!(
        has_line(&|l| l.starts_with("bot1 draws a card from the stockpile (")),
        "{lines:#?}"
    );
    assert!(has_line(&|l| l.starts_with("ann discards ")), "{lines:#?}");
    assert!(has_line(&|l| l == "ann's turn"), "{lines:#?}");
    assert!(has_line(&|l| l == "ann calls cambia"), "{lines:#?}");
    assert!(has_line(&|l| l.starts_with("game over: ")), "{lines:#?}");
    assert_readable(&mut page);
    assert_result_banner(&mut page);
    let heading = text_of(
        &mut page,
        "document.querySelector('#result h2').textContent",
    );
    assert!(heading.starts_with("Game over (cambia): "), "{heading}");
    assert_eq!(
        page.eval("document.getElementById('actions').textContent"),
        json!("the game is over")
    );
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-table.png");
    page.screenshot(&shot);
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "a real picture"
    );

    // A reload after the end: the same banner and log, and a line saying so.
    let before = text_of(&mut page, "document.getElementById('log').innerText");
    reload(&mut page);
    let after = text_of(&mut page, "document.getElementById('log').innerText");
    assert!(after.starts_with(&before), "{before}\n---\n{after}");
    assert!(
        after.contains("earlier lines restored from this tab; now the game is over (cambia): "),
        "{after}"
    );
    assert_result_banner(&mut page);
    let scores =
        page.eval("[...document.querySelectorAll('#result .score')].map(s => s.textContent)");

    // A tab without the log (a link opened elsewhere): it says so, and the banner adds up the
    // revealed hands, which here are the scores.
    page.eval("sessionStorage.clear()");
    reload(&mut page);
    let lines = event_lines(&mut page);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].starts_with("joined table ")
            && lines[0].contains(
                " as ann (this tab has no earlier log of it): the game is over (cambia): "
            ),
        "{lines:#?}"
    );
    assert_eq!(
        page.eval("document.querySelector('#result thead').textContent"),
        json!("playerpoints in handresult")
    );
    assert_eq!(
        page.eval("[...document.querySelectorAll('#result .score')].map(s => s.textContent)"),
        scores
    );
}

/// A tiny deterministic random source for the clicking player.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A legal message as the page groups it: its button's `data-action` and the cards to click
/// first, in order.
fn button_and_cards(message: &Json) -> (String, Vec<String>) {
    let object = message.as_object().unwrap();
    let name = object["type"]
        .as_str()
        .unwrap()
        .trim_start_matches("action_");
    let word = object
        .iter()
        .find(|(k, v)| *k != "type" && v.is_string())
        .map(|(_, v)| format!(" {}", v.as_str().unwrap()));
    let cards = ["card", "card1", "card2"]
        .iter()
        .filter_map(|k| object.get(*k)?.get("id")?.as_str().map(str::to_string))
        .collect();
    (format!("{name}{}", word.unwrap_or_default()), cards)
}

#[test]
fn every_variant_ends_with_a_scores_banner() {
    let Some(binary) = browser::chromium("the browser table test of every variant") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = server::TestServer::start(&dir.path().join("tables.db"));
    let variants: Json = ureq::get(&format!("http://{}/variants", server.addr))
        .call()
        .unwrap()
        .body_mut()
        .read_json()
        .unwrap();
    let variants = variants.as_array().unwrap();
    assert!(!variants.is_empty());
    // Every variant in CI; the first two at a developer's size (each game takes seconds of
    // clicks).
    let played = crate::common::size::by_size(2, variants.len());
    let mut page = browser::Browser::start(&binary);
    for (n, variant) in variants.iter().take(played).enumerate() {
        let name = variant["name"].as_str().unwrap();
        // The actions that end a game sooner: the ones that call the end ("call Cambia").
        let calls: Vec<&str> = variant["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| {
                a["name"].as_str().unwrap().contains("call")
                    || a["doc"]
                        .as_str()
                        .unwrap_or("")
                        .to_lowercase()
                        .contains("call")
            })
            .map(|a| a["name"].as_str().unwrap())
            .collect();
        start_game(&mut page, &server.addr, name, 11 + n as u64, n as u32 + 1);
        assert_hands_are_grids(&mut page);
        let mut dice = Dice(n as u64 + 3);
        let start = Instant::now();
        let mut acted = 0;
        loop {
            assert!(
                start.elapsed() < Duration::from_secs(180),
                "{name}: no result after 180 s; the log: {}",
                page.eval("document.getElementById('log').innerText")
            );
            if page.eval("document.getElementById('result').hidden") == json!(false) {
                break;
            }
            let legal = page.eval("legal");
            let legal = legal.as_array().unwrap();
            if legal.is_empty() {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            // A few moves of any kind, then the call as soon as it is legal.
            let calling: Vec<&Json> = legal
                .iter()
                .filter(|m| {
                    let kind = m["type"].as_str().unwrap().trim_start_matches("action_");
                    acted >= 6 && calls.contains(&kind)
                })
                .collect();
            let message = if calling.is_empty() {
                let labels: Vec<String> = legal.iter().map(|m| button_and_cards(m).0).collect();
                let mut distinct = labels.clone();
                distinct.sort();
                distinct.dedup();
                let label = &distinct[dice.below(distinct.len())];
                let group: Vec<&Json> = legal
                    .iter()
                    .zip(&labels)
                    .filter(|(_, l)| *l == label)
                    .map(|(m, _)| m)
                    .collect();
                group[dice.below(group.len())]
            } else {
                calling[0]
            };
            let (label, cards) = button_and_cards(message);
            page.eval("document.getElementById('refusal').textContent = ''");
            let before = page.eval("document.getElementById('log').childNodes.length");
            // Choose the cards, then the action: skip this round if the table moved on.
            let clicked = cards
                .iter()
                .all(|id| try_click(&mut page, &format!(".card[data-id='{id}']")))
                && try_click(
                    &mut page,
                    &format!("#actions .action[data-action='{label}']"),
                );
            if !clicked {
                page.eval("selected = []");
                continue;
            }
            let patience = Instant::now();
            while page.eval(&format!(
                "document.getElementById('log').childNodes.length > {before} || \
                 document.getElementById('refusal').textContent !== ''"
            )) != json!(true)
                && patience.elapsed() < Duration::from_secs(3)
            {
                std::thread::sleep(Duration::from_millis(30));
            }
            page.eval("selected = []");
            acted += 1;
        }
        assert!(acted > 0, "{name}: the person never acted");
        assert_readable(&mut page);
        assert_result_banner(&mut page);
    }
}
