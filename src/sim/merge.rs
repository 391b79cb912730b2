//! Merging the `--json` summaries of a study's shards: each file is checked on its own (its counts
//! must be possible), against the first (the same study), and against the others (each shard
//! once, none missing unless asked); then the counts add up, every sum checked.

use super::{ShardRange, Shards, Summary};
use crate::kernel::limits::MAX_PLAYERS;

/// Why summaries cannot be merged. Every message names the files concerned.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// A summary whose counts no run could produce (edited, truncated or from another tool).
    #[error("{file}: impossible summary: {problem}")]
    Impossible {
        /// The file's name.
        file: String,
        /// What is impossible about it.
        problem: String,
    },
    /// A summary of another study than the first file's: a field that names the study differs.
    #[error(
        "{file} is not a shard of the study of {first}: the {field} differ ({first}: {a}; {file}: {b})"
    )]
    Mismatch {
        /// The first file's name.
        first: String,
        /// The file that differs.
        file: String,
        /// What differs, in the plural: `variants`, `rules fingerprints`, `house rules`…
        field: &'static str,
        /// The first file's value, as text.
        a: String,
        /// This file's value, as text.
        b: String,
    },
    /// Two files hold the same shard: merging both would count its games twice.
    #[error("{earlier} and {file} both hold {shards}: merge each shard once")]
    Overlap {
        /// The file given first.
        earlier: String,
        /// The file given later.
        file: String,
        /// The shards both hold: `shard 2/3`, `shards 2, 4-7 of 8`.
        shards: String,
    },
    /// Some shards of the study are in no file given (and partial merges were not allowed), or
    /// no file was given at all.
    #[error(
        "{missing} missing ({games} of the study's {study_games} games are here): merge them too, or pass --allow-partial to summarize the shards given"
    )]
    Missing {
        /// Which shards, with their verb: `shard 3/4 is`, `shards 2, 4 of 8 are`.
        missing: String,
        /// The games the files given hold.
        games: u64,
        /// The games of the whole study.
        study_games: u64,
    },
    /// Adding a file's counts to those before it overflowed 64 bits.
    #[error("{file}: the {count} overflow 64 bits when added to the files before it")]
    Overflow {
        /// The file whose counts overflowed.
        file: String,
        /// Which count: `games`, `actions`, `scores`…
        count: &'static str,
    },
}

/// `shard 2/3`, `shards 2, 4-7 of 8`.
fn describe(ranges: &[ShardRange], count: u64) -> String {
    match ranges {
        [r] if r.first == r.last => format!("shard {}/{count}", r.first),
        _ => format!("shards {} of {count}", Shards::list(ranges)),
    }
}

/// Merge named summaries (file names first) into the summary of the whole study, or, with
/// `allow_partial`, of the shards given (its `notes` say which are missing).
pub fn merge(parts: &[(String, Summary)], allow_partial: bool) -> Result<Summary, MergeError> {
    let Some(((first_name, first), rest)) = parts.split_first() else {
        return Err(MergeError::Missing {
            missing: "every shard is".into(),
            games: 0,
            study_games: 0,
        });
    };
    let impossible = |file: &str, problem: String| MergeError::Impossible {
        file: file.to_string(),
        problem,
    };
    check_counts(first).map_err(|p| impossible(first_name, p))?;
    let mut total = first.clone();
    let mut held: Vec<(&str, &Shards)> = vec![(first_name, &first.shard)];
    for (name, part) in rest {
        check_counts(part).map_err(|p| impossible(name, p))?;
        same_study(first_name, first, name, part)?;
        for (earlier, shards) in &held {
            let both = if shards.count() == 1 || part.shard.count() == 1 {
                // A whole study holds every shard of any count.
                if shards.count() == 1 {
                    part.shard.ranges().to_vec()
                } else {
                    shards.ranges().to_vec()
                }
            } else {
                shards.overlap(&part.shard)
            };
            if !both.is_empty() {
                let count = shards.count().max(part.shard.count());
                return Err(MergeError::Overlap {
                    earlier: earlier.to_string(),
                    file: name.clone(),
                    shards: describe(&both, count),
                });
            }
        }
        held.push((name, &part.shard));
        total.add(part).map_err(|count| MergeError::Overflow {
            file: name.clone(),
            count,
        })?;
        total.shard.add(&part.shard);
    }
    let missing = total.shard.missing();
    if !missing.is_empty() && !allow_partial {
        let what = describe(&missing, total.shard.count());
        return Err(MergeError::Missing {
            missing: format!(
                "{what} {}",
                if what.starts_with("shards") {
                    "are"
                } else {
                    "is"
                }
            ),
            games: total.games,
            study_games: total.study_games,
        });
    }
    Ok(total)
}

/// The first file's value and this file's, when a field that names the study differs.
fn same_study(
    first_name: &str,
    first: &Summary,
    name: &str,
    part: &Summary,
) -> Result<(), MergeError> {
    let house = |s: &Summary| {
        if s.house_rules.is_empty() {
            "none".to_string()
        } else {
            s.house_rules
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let fields: [(&'static str, String, String); 7] = [
        ("variants", first.variant.clone(), part.variant.clone()),
        (
            "rules fingerprints",
            first.rules_fingerprint.clone(),
            part.rules_fingerprint.clone(),
        ),
        (
            "players",
            first.players.to_string(),
            part.players.to_string(),
        ),
        ("seats", first.seats.join(", "), part.seats.join(", ")),
        ("house rules", house(first), house(part)),
        (
            "first seeds",
            first.first_seed.to_string(),
            part.first_seed.to_string(),
        ),
        (
            "study sizes",
            format!("{} games", first.study_games),
            format!("{} games", part.study_games),
        ),
    ];
    for (field, a, b) in fields {
        if a != b {
            return Err(MergeError::Mismatch {
                first: first_name.to_string(),
                file: name.to_string(),
                field,
                a,
                b,
            });
        }
    }
    // A whole study (1/1) holds every shard of any count: the overlap check names it.
    let (n, m) = (first.shard.count(), part.shard.count());
    if n != m && n > 1 && m > 1 {
        return Err(MergeError::Mismatch {
            first: first_name.to_string(),
            file: name.to_string(),
            field: "shard counts",
            a: format!("shard {}", first.shard),
            b: format!("shard {}", part.shard),
        });
    }
    Ok(())
}

/// The counts of one summary must be ones a run can produce.
pub fn check_counts(s: &Summary) -> Result<(), String> {
    let overflow = |what: &str| format!("its {what} add up to more than 64 bits hold");
    if s.players == 0 || s.players > MAX_PLAYERS {
        return Err(format!(
            "{} players (a game has 1 to {MAX_PLAYERS})",
            s.players
        ));
    }
    if s.seats.len() != s.players || s.seat_wins.len() != s.players {
        return Err(format!(
            "{} players, but {} seats and {} seat win counts",
            s.players,
            s.seats.len(),
            s.seat_wins.len()
        ));
    }
    if s.study_games > 0 && s.first_seed.checked_add(s.study_games - 1).is_none() {
        return Err(format!(
            "{} games from seed {} need seeds past {}",
            s.study_games,
            s.first_seed,
            u64::MAX
        ));
    }
    let planned = s
        .shard
        .planned(s.study_games)
        .ok_or_else(|| overflow("shards' games"))?;
    if s.games != planned {
        return Err(format!(
            "{} games, but {} of a {}-game study hold{} {planned}",
            s.games,
            if s.shard.is_whole() {
                "the whole".to_string()
            } else {
                describe(s.shard.ranges(), s.shard.count())
            },
            s.study_games,
            if s.shard.ranges().len() == 1 && s.shard.ranges()[0].first == s.shard.ranges()[0].last
            {
                "s"
            } else {
                ""
            },
        ));
    }
    for (what, zero) in [
        ("lengths", s.lengths.values().any(|&c| c == 0)),
        ("end_reasons", s.end_reasons.values().any(|&c| c == 0)),
        ("scores", s.scores.values().any(|&c| c == 0)),
    ] {
        if zero {
            return Err(format!("{what} lists a count of 0"));
        }
    }
    let lengths = total(s.lengths.values()).ok_or_else(|| overflow("lengths' counts"))?;
    if lengths != s.games {
        return Err(format!(
            "the lengths' counts add up to {lengths}, not the {} games",
            s.games
        ));
    }
    let actions = s
        .lengths
        .iter()
        .try_fold(0u64, |a, (len, n)| a.checked_add(len.checked_mul(*n)?))
        .ok_or_else(|| overflow("game lengths"))?;
    if actions != s.actions {
        return Err(format!(
            "{} actions, but the game lengths add up to {actions}",
            s.actions
        ));
    }
    let (min, max) = (
        s.lengths.keys().next().copied().unwrap_or(0),
        s.lengths.keys().last().copied().unwrap_or(0),
    );
    if (s.length_min, s.length_max) != (min, max) {
        return Err(format!(
            "length_min {} and length_max {}, but the lengths run from {min} to {max}",
            s.length_min, s.length_max
        ));
    }
    let reasons = total(s.end_reasons.values()).ok_or_else(|| overflow("end reasons' counts"))?;
    if reasons != s.games {
        return Err(format!(
            "the end reasons' counts add up to {reasons}, not the {} games",
            s.games
        ));
    }
    let scores = total(s.scores.values()).ok_or_else(|| overflow("scores' counts"))?;
    let seat_games = u64::try_from(s.players)
        .ok()
        .and_then(|p| p.checked_mul(s.games));
    if Some(scores) != seat_games {
        return Err(format!(
            "the scores' counts add up to {scores}, not one score per seat per game ({} × {})",
            s.players, s.games
        ));
    }
    for (seat, &wins) in s.seat_wins.iter().enumerate() {
        if wins > s.games {
            return Err(format!("seat {seat} won {wins} of {} games", s.games));
        }
    }
    if s.tied_games > s.games {
        return Err(format!("{} tied games of {} games", s.tied_games, s.games));
    }
    if s.no_winner_games > s.games - s.tied_games {
        return Err(format!(
            "{} games with no winner and {} tied games of {} games",
            s.no_winner_games, s.tied_games, s.games
        ));
    }
    if (s.bot_refusals == 0) != s.first_refusal.is_none() {
        return Err(format!(
            "{} bot refusals, but {} first refusal",
            s.bot_refusals,
            if s.first_refusal.is_some() { "a" } else { "no" }
        ));
    }
    // A game has no winner, one, or (tied) two or more, up to every seat.
    let wins = s.wins_total();
    let (tied, single, players) = (
        u128::from(s.tied_games),
        u128::from(s.games - s.tied_games - s.no_winner_games),
        s.players as u128,
    );
    let (least, most) = (single + 2 * tied, single + tied * players);
    if wins < least || wins > most {
        return Err(format!(
            "seat wins add up to {wins}, but {} of {} games had tied winners and {} none (so between {least} and {most})",
            s.tied_games, s.games, s.no_winner_games
        ));
    }
    if s.bot_refusals > s.bot_decisions {
        return Err(format!(
            "{} bot refusals, but only {} bot decisions",
            s.bot_refusals, s.bot_decisions
        ));
    }
    if s.seats.iter().all(|k| k == "random")
        && (s.bot_decisions, s.bot_refusals, s.bot_unknown_cards) != (0, 0, 0)
    {
        return Err("bot counts, but every seat is random".into());
    }
    if !s.seconds.is_finite() || s.seconds < 0.0 {
        return Err(format!("{} seconds", s.seconds));
    }
    Ok(())
}

/// The sum of counts, if it fits in 64 bits.
fn total<'a>(mut values: impl Iterator<Item = &'a u64>) -> Option<u64> {
    values.try_fold(0u64, |a, b| a.checked_add(*b))
}
