//! The load benchmark of `deckspec serve`: N concurrent 4-player Cambia tables over loopback
//! WebSockets, every seat a client program; prints tables, actions/s, p50/p99 latency from a
//! client's action to its answer, refusals, and the server's memory per table.
//!
//! ```text
//! cargo build --release && cargo build --release -p deckspec-tools --example serve_load
//! target/release/examples/serve_load --tables 1000 --seconds 60            # human pace
//! target/release/examples/serve_load --tables 100 --seconds 30 --bots      # 1 fast client + 3 bots, think 0
//! ```
//!
//! Human pace: each seat acts 1–3 s after it may (its turn, its drawn card, its power), never
//! snaps, and calls Cambia after 8 turns. Bots: one client acting at once and three bots with
//! think delay 0 per table; a table whose game ends is replaced by a new one.
//! Talks to 127.0.0.1 only; every loop is bounded by `--seconds`.

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser, Debug)]
struct Args {
    /// Concurrent tables.
    #[arg(long, default_value_t = 1000)]
    tables: usize,
    /// How long to measure, after every table is seated.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// One client acting at once and three bots at think delay 0 per table (instead of four
    /// clients at human pace).
    #[arg(long)]
    bots: bool,
    /// The `deckspec` binary (default: beside this example, `target/release/deckspec`).
    #[arg(long)]
    server: Option<PathBuf>,
}

/// What every client adds up.
#[derive(Default)]
struct Totals {
    actions_seen: AtomicU64,
    sent: AtomicU64,
    answered: AtomicU64,
    refused: AtomicU64,
    games_ended: AtomicU64,
    dropped: AtomicU64,
    latencies_us: Mutex<Vec<u32>>,
    first_refusal: Mutex<Option<String>>,
}

/// Cambia's `player_*` messages that stand for one accepted action.
const ACTION_EVENTS: [&str; 8] = [
    "player_draw_stockpile",
    "player_draw_discardpile",
    "player_discard",
    "player_replace",
    "player_special_action",
    "player_cambia",
    "player_snap_success",
    "player_snap_fail",
];

fn main() {
    let args = Args::parse();
    let binary = args.server.clone().unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("the example's path");
        exe.parent()
            .and_then(|examples| examples.parent())
            .map(|dir| dir.join("deckspec"))
            .expect("a target folder")
    });
    assert!(
        binary.exists(),
        "{} is missing: cargo build --release --bins --examples",
        binary.display()
    );
    let dir = tempfile::tempdir().expect("a scratch folder");
    let db = dir.path().join("load.db");
    let (mut server, addr) = start_server(&binary, &db);
    let pid = server.id();
    let rss_before = rss_kib(pid);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let totals = Arc::new(Totals::default());
    let seated = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline_holder = Arc::new(std::sync::OnceLock::<Instant>::new());
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for t in 0..args.tables {
            let addr = addr.clone();
            let totals = totals.clone();
            let seated = seated.clone();
            let deadline = deadline_holder.clone();
            let bots = args.bots;
            tasks.push(tokio::spawn(async move {
                run_table(&addr, t as u64, bots, &totals, &seated, &deadline).await;
            }));
        }
        // Every table seated and connected: measure from now for `seconds`.
        while seated.load(Ordering::Relaxed) < args.tables as u64 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let seat_time = started.elapsed();
        let rss_seated = rss_kib(pid);
        let measure_from = Instant::now();
        let _ = deadline_holder.set(measure_from + Duration::from_secs(args.seconds));
        let before = snapshot(&totals);
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
        let after = snapshot(&totals);
        let elapsed = measure_from.elapsed().as_secs_f64();
        let mut latencies = std::mem::take(&mut *totals.latencies_us.lock().await);
        latencies.sort_unstable();
        let pct = |p: f64| -> f64 {
            if latencies.is_empty() {
                return f64::NAN;
            }
            let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
            f64::from(latencies[i]) / 1000.0
        };
        let rss_end = rss_kib(pid);
        println!(
            "mode: {}",
            if args.bots {
                "1 client acting at once + 3 bots (think 0) per table"
            } else {
                "4 clients per table, each acting 1-3 s after it may"
            }
        );
        println!("tables: {} (seated in {:.1} s)", args.tables, seat_time.as_secs_f64());
        println!(
            "actions/s: {:.0} ({} actions in {:.1} s); games ended: {}",
            (after.0 - before.0) as f64 / elapsed,
            after.0 - before.0,
            elapsed,
            after.3 - before.3
        );
        println!(
            "client actions: {} sent, {} answered, {} refused, {} connections dropped",
            after.1, after.2, after.4, after.5
        );
        if let Some(first) = &*totals.first_refusal.lock().await {
            println!("first refusal: {first}");
        }
        println!(
            "latency, action to answer: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
            pct(0.5),
            pct(0.99),
            pct(1.0),
            latencies.len()
        );
        println!(
            "server memory: {:.1} MiB at start, {:.1} MiB seated, {:.1} MiB at the end: {:.1} KiB per table",
            rss_before as f64 / 1024.0,
            rss_seated as f64 / 1024.0,
            rss_end as f64 / 1024.0,
            (rss_seated.saturating_sub(rss_before)) as f64 / args.tables as f64
        );
        for task in tasks {
            task.abort();
        }
    });
    let _ = server.kill();
    let _ = server.wait();
}

fn snapshot(t: &Totals) -> (u64, u64, u64, u64, u64, u64) {
    (
        t.actions_seen.load(Ordering::Relaxed),
        t.sent.load(Ordering::Relaxed),
        t.answered.load(Ordering::Relaxed),
        t.games_ended.load(Ordering::Relaxed),
        t.refused.load(Ordering::Relaxed),
        t.dropped.load(Ordering::Relaxed),
    )
}

fn start_server(binary: &PathBuf, db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(binary)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--max-tables",
            "100000",
            // Every client is on this machine: one address, so the per-address caps are
            // raised to the run's size (the other limits stay as a server runs them).
            "--max-connections-per-address",
            "100000",
            "--creations-per-minute",
            "100000",
            "--db",
        ])
        .arg(db)
        .arg("--rules")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("deckspec serve starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server ended");
        if let Some(rest) = line.trim().strip_prefix("open http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || {
        let mut sink = String::new();
        while out.read_line(&mut sink).unwrap_or(0) > 0 {
            sink.clear();
        }
    });
    (child, addr)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// A new table's id and tokens; `None` once the server is gone (the run is over).
async fn create_table(addr: &str, request: Json) -> Option<(String, Json)> {
    let url = format!("http://{addr}/tables");
    tokio::task::spawn_blocking(move || {
        let answer: Json = ureq::post(&url)
            .send_json(&request)
            .ok()?
            .body_mut()
            .read_json()
            .ok()?;
        Some((
            answer["table"].as_str()?.to_string(),
            answer["seats"].clone(),
        ))
    })
    .await
    .ok()
    .flatten()
}

async fn run_table(
    addr: &str,
    n: u64,
    bots: bool,
    totals: &Arc<Totals>,
    seated: &Arc<AtomicU64>,
    deadline: &Arc<std::sync::OnceLock<Instant>>,
) {
    let mut first = true;
    loop {
        let names: Vec<String> = if bots {
            vec!["p0".into()]
        } else {
            (0..4).map(|i| format!("p{i}")).collect()
        };
        let request = if bots {
            json!({"variant": "cambia", "players": names, "bots": ["medium", "medium", "medium"], "think_ms": 0})
        } else {
            json!({"variant": "cambia", "players": names})
        };
        let Some((table, seats)) = create_table(addr, request).await else {
            return;
        };
        let mut seats_tasks = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let url = format!(
                "ws://{addr}/tables/{table}/ws?token={}",
                seats[name].as_str().unwrap()
            );
            let totals = totals.clone();
            let name = name.clone();
            let pace = if bots { None } else { Some(n * 4 + i as u64) };
            // One seat per table counts the table's actions.
            let counts = i == 0;
            let Ok((socket, _)) = tokio_tungstenite::connect_async(url).await else {
                return;
            };
            seats_tasks.push(tokio::spawn(async move {
                play_seat(socket, name, pace, counts, &totals).await
            }));
        }
        if first {
            seated.fetch_add(1, Ordering::Relaxed);
            first = false;
        }
        let mut ended = false;
        for task in seats_tasks {
            ended |= task.await.unwrap_or(false);
        }
        if !ended || deadline.get().is_some_and(|d| Instant::now() > *d) {
            return;
        }
    }
}

/// A seat's client: reads its messages and acts when it may; answers whether the game ended.
async fn play_seat(
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    me: String,
    pace: Option<u64>,
    counts: bool,
    totals: &Totals,
) -> bool {
    let (mut sink, mut stream) = socket.split();
    let mut rng = pace.unwrap_or(1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut turns = 0;
    let mut cambia_called = false;
    let mut waiting: Option<Instant> = None;
    // The action to send next and when (human pace: 1–3 s after it may).
    let mut due: Option<(Instant, Json)> = None;
    loop {
        let sleep_until = due.as_ref().map(|(at, _)| *at);
        let message = tokio::select! {
            m = stream.next() => m,
            () = async {
                match sleep_until {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    None => std::future::pending().await,
                }
            } => {
                let (_, action) = due.take().expect("a due action");
                waiting = Some(Instant::now());
                totals.sent.fetch_add(1, Ordering::Relaxed);
                if sink.send(Message::Text(action.to_string().into())).await.is_err() {
                    totals.dropped.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                continue;
            }
        };
        let Some(Ok(Message::Text(text))) = message else {
            if matches!(message, Some(Ok(_))) {
                continue;
            }
            totals.dropped.fetch_add(1, Ordering::Relaxed);
            return false;
        };
        let m: Json = serde_json::from_str(&text).expect("JSON from the server");
        let kind = m["type"].as_str().unwrap_or("");
        let who = m["user"]["id"].as_str().or(m["player"]["id"].as_str());
        if counts && ACTION_EVENTS.contains(&kind) {
            totals.actions_seen.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(sent) = waiting
            && (kind == "error" || who == Some(me.as_str()) || kind.starts_with("private_"))
        {
            totals.answered.fetch_add(1, Ordering::Relaxed);
            let us = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
            totals.latencies_us.lock().await.push(us);
            waiting = None;
        }
        if kind == "error" {
            totals.refused.fetch_add(1, Ordering::Relaxed);
            let mut first = totals.first_refusal.lock().await;
            if first.is_none() {
                *first = Some(format!("{me}: {}", m["message"]));
            }
            continue;
        }
        if kind == "player_cambia" {
            cambia_called = true;
        }
        if kind == "game_end" {
            if counts {
                totals.games_ended.fetch_add(1, Ordering::Relaxed);
            }
            return true;
        }
        // A client acts on events alone: the first connection gets the table's opening after
        // the sync state (its own `game_player_turn` among it), so acting on the sync state too
        // would act twice.
        let action = match (kind, who == Some(me.as_str())) {
            ("game_player_turn", true) => {
                turns += 1;
                if turns > 8 && !cambia_called {
                    Some(json!({"type": "action_cambia"}))
                } else {
                    Some(json!({"type": "action_draw_stockpile"}))
                }
            }
            ("private_draw_stockpile", _) => Some(if next(2) == 0 {
                json!({"type": "action_discard"})
            } else {
                json!({"type": "action_replace", "card": {"idx": next(4)}})
            }),
            ("player_special_choice", true) => {
                Some(json!({"type": "action_special", "special": "skip"}))
            }
            _ => None,
        };
        if let Some(action) = action {
            let delay = match pace {
                Some(_) => Duration::from_millis(1000 + next(2000)),
                None => Duration::ZERO,
            };
            due = Some((Instant::now() + delay, action));
        }
    }
}
