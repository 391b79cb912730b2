//! `deckspec info <variant>`: what a variant declares, read from the loaded variant
//! (`variant.yaml` with what it extends, the rulebook and `bots.yaml`), as text or `--json`.

use super::{EXIT_BROKEN, EXIT_OK, render};
use crate::kernel::{HouseRuleType, Value};
use crate::script::Variant;
use crate::script::variant::describe::{actor, forms, house_rule_about, who_and_when};
use serde_json::{Value as Json, json};
use std::path::PathBuf;

/// The arguments of `deckspec info`.
#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// The variant to describe.
    pub variant: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the WebSocket messages a client of `deckspec serve` sends for each action, and the
    /// events the server sends, as a Markdown table.
    #[cfg(feature = "serve")]
    #[arg(long, conflicts_with = "json")]
    pub messages: bool,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
}

fn text(v: &Variant) -> String {
    let table = v.table();
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        "{}: {}",
        v.name,
        v.description.trim().replace('\n', " ")
    ));
    line(format!("players: {}", table.players));
    if let Some(base) = &v.extends {
        line(format!("extends: {base}"));
    }
    line(String::new());
    line("actions:".into());
    for action in &table.actions {
        let doc = v.action_docs.get(&*action.name).map_or("", String::as_str);
        line(format!("  {}: {doc}", action.name));
        let who = format!("    {}", who_and_when(table, action));
        line(who);
        for form in forms(table, action) {
            line(format!("    {form}"));
        }
    }
    line(String::new());
    let phases: Vec<String> = table
        .phases
        .iter()
        .map(|p| {
            if p.setup {
                format!("{} (setup)", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect();
    line(format!("phases: {}", phases.join(", ")));
    let events: Vec<&str> = table.events.iter().map(|e| &**e).collect();
    line(format!("events: {}", events.join(", ")));
    let timers = if table.timers.is_empty() {
        "none".to_string()
    } else {
        table.timers.join(", ")
    };
    line(format!("timers: {timers}"));
    line(String::new());
    line("house rules:".into());
    for h in &v.house_rules {
        let about = house_rule_about(h);
        line(format!("  {} ({about}): {}", h.name, h.doc));
    }
    line(String::new());
    let bots = match &v.bots {
        None => "none".to_string(),
        Some(book) => {
            let mut levels: Vec<&str> = book.levels().collect();
            let rank = |l: &str| crate::script::bots::LEVELS.iter().position(|x| *x == l);
            levels.sort_by_key(|l| rank(l));
            let from = v
                .bots_from
                .as_ref()
                .map_or(String::new(), |b| format!(" (inherited from {b})"));
            format!("{}{from}", levels.join(", "))
        }
    };
    line(format!("bots: {bots}"));
    let from = v
        .rulebook_from
        .as_ref()
        .map_or(String::new(), |b| format!(" (inherited from {b})"));
    line(format!(
        "rulebook: {}{from}",
        super::counted(v.rulebook.rules.len(), "rule")
    ));
    out
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::Unit => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Float(x) => json!(x),
        Value::List(items) => Json::Array(items.iter().map(value_json).collect()),
        other => json!(other.to_string()),
    }
}

fn as_json(v: &Variant) -> Json {
    let table = v.table();
    let actions: Vec<Json> = table
        .actions
        .iter()
        .map(|a| {
            json!({
                "name": &*a.name,
                "doc": v.action_docs.get(&*a.name).cloned().unwrap_or_default(),
                "actor": actor(table, &a.actor),
                "phases": a.phases.as_ref().map(|ps| ps.iter().map(|p| table.phase_name(*p)).collect::<Vec<_>>()),
                "forms": forms(table, a),
            })
        })
        .collect();
    let house: Vec<Json> = v
        .house_rules
        .iter()
        .map(|h| {
            let choices = match &h.kind {
                HouseRuleType::Choice(c) => Some(c.clone()),
                _ => None,
            };
            json!({
                "name": h.name, "type": h.kind.name(), "choices": choices,
                "default": value_json(&h.default), "min": h.range.min, "max": h.range.max,
                "doc": h.doc,
            })
        })
        .collect();
    json!({
        "name": v.name,
        "description": v.description.trim(),
        "players": { "min": table.players.min, "max": table.players.max },
        "extends": v.extends,
        "actions": actions,
        "phases": table.phases.iter().map(|p| json!({"name": p.name, "setup": p.setup})).collect::<Vec<_>>(),
        "events": table.events.iter().map(|e| &**e).collect::<Vec<_>>(),
        "timers": table.timers,
        "house_rules": house,
        "bots": v.bots.as_ref().map(|b| b.levels().collect::<Vec<_>>()),
        "bots_from": v.bots_from,
        "rules": v.rulebook.rules.len(),
        "rulebook_from": v.rulebook_from,
    })
}

pub fn info(args: &InfoArgs) -> i32 {
    match Variant::load_named(&args.rules, &args.variant) {
        Ok(v) => {
            if args.json {
                outln!("{}", as_json(&v));
                return EXIT_OK;
            }
            #[cfg(feature = "serve")]
            if args.messages {
                out!(
                    "{}",
                    crate::serve::protocol::markdown(&[(&**v.table(), &v.action_docs)])
                );
                return EXIT_OK;
            }
            out!("{}", text(&v));
            EXIT_OK
        }
        Err(e) => {
            out!("{}", render(&e));
            EXIT_BROKEN
        }
    }
}
