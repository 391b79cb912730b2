//! `deckspec merge` of `balance --shard K/N --json` outputs: each file's head must be the first's
//! (the same study), each shard once, none missing unless `--allow-partial`, and each tally
//! possible for its shard's games; the tallies are then summed in shard order and the study
//! printed as `balance` prints a whole one.

use super::balance::{Found, StudyHead, finish, study_found};
use crate::balance::Tally;
use crate::sim::Shard;
use std::collections::BTreeMap;

/// Whether a `--json` output is a balance study's (else it is taken as `simulate`'s).
pub(super) fn is_balance(json: &serde_json::Value) -> bool {
    json.get("tally").is_some() && json.get("metrics").is_some()
}

/// One file: its head, its shard and its tally, each checked on its own.
fn part(file: &str, json: &serde_json::Value) -> Result<(StudyHead, Shard, Tally), String> {
    let not = |e: String| format!("{file} is not a `balance --json` output: {e}");
    let head: StudyHead = serde_json::from_value(json.clone()).map_err(|e| not(e.to_string()))?;
    let shard = json["shard"]
        .as_str()
        .ok_or_else(|| not("no shard".into()))?
        .parse::<Shard>()
        .map_err(|_| not(format!("its shard {} is not K/N", json["shard"])))?;
    let tally: Tally =
        serde_json::from_value(json["tally"].clone()).map_err(|e| not(e.to_string()))?;
    if head.players == 0 || head.players > crate::kernel::limits::MAX_PLAYERS {
        return Err(format!(
            "{file}: impossible study: {} players",
            head.players
        ));
    }
    tally
        .check(
            shard.planned(head.games),
            head.players,
            head.actions.len(),
            head.rule_activation.rules.len(),
        )
        .map_err(|e| format!("{file}: impossible shard {shard}: {e}"))?;
    Ok((head, shard, tally))
}

/// The first field two heads differ in, with both values.
fn differs(a: &StudyHead, b: &StudyHead) -> Option<(String, String, String)> {
    let (ja, jb) = (serde_json::json!(a), serde_json::json!(b));
    let (Some(oa), Some(ob)) = (ja.as_object(), jb.as_object()) else {
        return None;
    };
    let (key, v) = oa.iter().find(|(k, v)| ob.get(*k) != Some(v))?;
    let field = match key.as_str() {
        "variant" => "variants",
        "rules_fingerprint" => "rules fingerprints",
        "house_rules" => "house rules",
        "study_games" => "study sizes",
        "first_seed" => "first seeds",
        "max_steps" => "step limits",
        "better" => "leading ends of the score",
        "better_inferred" => "ways of telling the leading end",
        "actions" => "declared actions",
        "rule_activation" => "rules measured",
        other => other,
    };
    let theirs = ob.get(key).map_or("none".into(), |w| w.to_string());
    Some((field.to_string(), v.to_string(), theirs))
}

fn merged(parts: &[(String, serde_json::Value)], allow_partial: bool) -> Result<Found, String> {
    let mut read = Vec::with_capacity(parts.len());
    for (file, json) in parts {
        read.push((file, part(file, json)?));
    }
    let Some((first, (head, first_shard, _))) = read.first() else {
        return Err("no file to merge".into());
    };
    let mut by_index: BTreeMap<u64, (&String, &Tally)> = BTreeMap::new();
    for (file, (h, shard, tally)) in &read {
        if let Some((field, a, b)) = differs(head, h) {
            return Err(format!(
                "{file} is not a shard of the study of {first}: the {field} differ ({first}: {a}; {file}: {b})"
            ));
        }
        if shard.count != first_shard.count {
            return Err(format!(
                "{file} is shard {shard}, {first} is shard {first_shard}: the study is cut into one number of shards"
            ));
        }
        if let Some((earlier, _)) = by_index.insert(shard.index, (file, tally)) {
            return Err(format!(
                "{earlier} and {file} both hold shard {shard}: merge each shard once"
            ));
        }
    }
    let count = first_shard.count;
    let missing: Vec<u64> = (1..=count)
        .filter(|k| !by_index.contains_key(k))
        .take(11)
        .collect();
    if !missing.is_empty() && !allow_partial {
        let listed: Vec<String> = missing
            .iter()
            .take(10)
            .map(|k| format!("{k}/{count}"))
            .collect();
        return Err(format!(
            "shards missing: {}{} (--allow-partial merges the shards given)",
            listed.join(", "),
            if missing.len() > 10 { ", …" } else { "" }
        ));
    }
    // In shard order, so that the same files give the same numbers in any order.
    let mut total: Option<Tally> = None;
    for (_, tally) in by_index.values() {
        match &mut total {
            Some(t) => t.merge(tally),
            None => total = Some((*tally).clone()),
        }
    }
    let total = total.unwrap_or_default();
    let seconds: f64 = parts
        .iter()
        .filter_map(|(_, j)| j["seconds"].as_f64())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .sum();
    let shards = match missing.is_empty() {
        true => Shard::WHOLE.to_string(),
        false => {
            let held: Vec<String> = by_index.keys().map(|k| k.to_string()).collect();
            format!("{}/{count}", held.join(","))
        }
    };
    Ok(study_found(head, &shards, &total, seconds, false))
}

/// Merge balance shards and print the study (text or JSON), with its page if asked.
pub(super) fn merge(
    parts: &[(String, serde_json::Value)],
    allow_partial: bool,
    json: bool,
    report: Option<&std::path::Path>,
) -> i32 {
    finish(merged(parts, allow_partial), json, report)
}
