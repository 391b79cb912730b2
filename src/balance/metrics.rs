//! The metrics of a balance study: what each game adds to them (`Tally::observe`), and each one
//! with its definition, value and 95% interval (`Tally::metrics`). Each is defined on the games'
//! outcomes, their length, and who led at the start of each turn by the variant's score hook on
//! the true state (what a designer sees; the players see less).

use super::stats::{CONFIDENCE, Mean, Share};
use super::trace::GameTrace;
use crate::sim::GameSummary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The sums a study's games come to, mergeable across threads and shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// By seat: whether it won (a tie counts for each winner).
    pub seat_wins: Vec<Share>,
    /// Whether the player who had the first turn won.
    pub first_turn_wins: Share,
    /// Actions a game.
    pub length: Mean,
    /// Turns a game.
    pub turns: Mean,
    /// Games won by one player: the share of the turns after which that player led for good.
    pub decisiveness: Mean,
    /// Times the sole leader changed, a game.
    pub lead_changes: Mean,
    /// Games won by one player: the winner did not lead at half time.
    pub comeback: Share,
    /// At each turn's start: points between the leader and the closest other player.
    pub lead_margin: Mean,
    /// Games stopped at the step limit.
    pub unfinished: Share,
    /// Finished games with no winner.
    pub no_winner: Share,
    /// Finished games with several winners.
    pub tied: Share,
    /// Games won by one player: points between the winner and the best other player at the end.
    pub score_margin: Mean,
    /// By declared action: times accepted a game.
    pub action_uses: Vec<Mean>,
    /// By declared action: of the players who used it in a game, the share who won.
    pub used_and_won: Vec<Share>,
    /// By declared action: of the players who did not use it in a game, the share who won.
    pub unused_and_won: Vec<Share>,
    /// A game's mean of the moves the forms offered a player who acted.
    pub branching: Mean,
    /// A game's share of actions that named a card their sender did not know.
    pub unknown_share: Mean,
    /// A game's share of steps that were time running out.
    pub time_share: Mean,
    /// Games by why they ended.
    pub reasons: BTreeMap<String, u64>,
    /// By measured rule (`Activation::rules`), over the probed games: times it fired a game.
    #[serde(default)]
    pub rule_fires: Vec<Mean>,
}

/// One metric's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// Its name in reports (`first-turn-advantage`).
    pub id: String,
    /// What it measures, in a sentence.
    pub definition: String,
    /// Its value, when there were observations.
    pub value: Option<f64>,
    /// Its 95% interval.
    pub interval: Option<(f64, f64)>,
    /// Observations it stands on (games, players or turns).
    pub n: u64,
    /// What it was computed from, for comparing two studies; in JSON, its kind (`share`,
    /// `mean`, `spread` or `lift`).
    #[serde(rename = "kind", serialize_with = "kind_of")]
    pub stat: Stat,
}

/// The statistic behind a metric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stat {
    /// A proportion.
    Share(Share),
    /// A mean.
    Mean(Mean),
    /// The standard deviation of these observations.
    Spread(Mean),
    /// The first share less the second.
    Lift(Share, Share),
}

impl Tally {
    /// A tally for games of `players` players of a variant with `actions` declared actions, and
    /// `rules` rules whose activation is measured.
    pub fn new(players: usize, actions: usize, rules: usize) -> Tally {
        Tally {
            rule_fires: vec![Mean::default(); rules],
            seat_wins: vec![Share::default(); players],
            action_uses: vec![Mean::default(); actions],
            used_and_won: vec![Share::default(); actions],
            unused_and_won: vec![Share::default(); actions],
            ..Tally::default()
        }
    }

    /// Whether a run of `games` games of `players` players, `actions` declared actions and
    /// `rules` measured rules could have summed to this tally (a shard's file may hold anything):
    /// the first count found impossible, named.
    pub fn check(
        &self,
        games: u64,
        players: usize,
        actions: usize,
        rules: usize,
    ) -> Result<(), String> {
        let seats = games.saturating_mul(players as u64);
        let fail = |what: &str| Err(format!("its {what} are not possible in {games} games"));
        if self.games != games {
            return Err(format!("it counts {} games, not {games}", self.games));
        }
        if self.seat_wins.len() != players || !self.seat_wins.iter().all(|s| s.is_possible(games)) {
            return fail("seat wins");
        }
        let shares = [
            ("first-turn wins", &self.first_turn_wins),
            ("comebacks", &self.comeback),
            ("stalemates", &self.unfinished),
            ("games without a winner", &self.no_winner),
            ("ties", &self.tied),
        ];
        for (what, s) in shares {
            if !s.is_possible(games) {
                return fail(what);
            }
        }
        let means = [
            ("lengths", &self.length),
            ("turns", &self.turns),
            ("decisiveness", &self.decisiveness),
            ("lead changes", &self.lead_changes),
            ("lead margins", &self.lead_margin),
            ("score margins", &self.score_margin),
            ("branching", &self.branching),
            ("unknown cards", &self.unknown_share),
            ("time shares", &self.time_share),
        ];
        for (what, m) in means {
            if !m.is_possible(games) {
                return fail(what);
            }
        }
        let by_action = self.action_uses.len() == actions
            && self.used_and_won.len() == actions
            && self.unused_and_won.len() == actions
            && self.action_uses.iter().all(|m| m.is_possible(games))
            && self.used_and_won.iter().all(|s| s.is_possible(seats))
            && self.unused_and_won.iter().all(|s| s.is_possible(seats));
        if !by_action {
            return fail("actions' counts");
        }
        let probed = self.rule_fires.first().map_or(0, |m| m.n);
        let by_rule = self.rule_fires.len() == rules
            && self
                .rule_fires
                .iter()
                .all(|m| m.n == probed && m.is_possible(games));
        if !by_rule {
            return fail("rules' counts");
        }
        if self
            .reasons
            .values()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            != Some(games)
        {
            return fail("end reasons");
        }
        Ok(())
    }

    /// Add one game: its outcome and its trace.
    pub fn observe(&mut self, game: &GameSummary, trace: &GameTrace) {
        self.games += 1;
        let players = self.seat_wins.len();
        let won = |s: usize| game.winners.contains(&s);
        for (s, share) in self.seat_wins.iter_mut().enumerate() {
            share.add(won(s));
        }
        if let Some(first) = trace.first_turn {
            self.first_turn_wins.add(won(first));
        }
        self.length.add(game.actions as f64);
        self.turns.add(trace.turns.len() as f64);
        *self.reasons.entry(game.reason.clone()).or_default() += 1;
        self.unfinished.add(game.unfinished);
        if !game.unfinished {
            self.no_winner.add(game.winners.is_empty());
            self.tied.add(game.winners.len() > 1);
        }
        let sole = |bits: u64| (bits.count_ones() == 1).then(|| bits.trailing_zeros() as usize);
        let mut changes = 0u32;
        let mut last: Option<usize> = None;
        let mut margins = Mean::default();
        for turn in &trace.turns {
            margins.add(turn.margin);
            if let Some(now) = sole(turn.leaders) {
                if last.is_some_and(|l| l != now) {
                    changes += 1;
                }
                last = Some(now);
            }
        }
        // One value a game: the turns of a game are not independent of each other, so an interval
        // over turns would be too narrow.
        if let Some(m) = margins.value() {
            self.lead_margin.add(m);
        }
        self.lead_changes.add(f64::from(changes));
        if let [winner] = game.winners[..]
            && !trace.turns.is_empty()
        {
            let leads = |t: usize| trace.turns[t].leaders & (1 << winner.min(63)) != 0;
            let n = trace.turns.len();
            // The first turn from which the winner led to the end.
            let from = (0..n).rev().take_while(|&t| leads(t)).last().unwrap_or(n);
            self.decisiveness.add(from as f64 / n as f64);
            self.comeback.add(!leads(n / 2));
            let best_other = game
                .scores
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != winner)
                .map(|(_, &v)| (v - game.scores[winner]).abs())
                .min();
            if let Some(margin) = best_other {
                self.score_margin.add(margin as f64);
            }
        }
        for (a, by_seat) in trace.uses.iter().enumerate() {
            let total: u32 = by_seat.iter().sum();
            if let Some(m) = self.action_uses.get_mut(a) {
                m.add(f64::from(total));
            }
            for (s, &n) in by_seat.iter().enumerate().take(players) {
                let side = match n > 0 {
                    true => self.used_and_won.get_mut(a),
                    false => self.unused_and_won.get_mut(a),
                };
                if let Some(side) = side
                    && !game.unfinished
                {
                    side.add(won(s));
                }
            }
        }
        if trace.uses.is_empty() {
            // A game with no action: every action went unused by every player.
            for side in &mut self.unused_and_won {
                for s in 0..players {
                    side.add(won(s));
                }
            }
            for m in &mut self.action_uses {
                m.add(0.0);
            }
        }
        if trace.decisions > 0 {
            let d = trace.decisions as f64;
            self.branching.add(trace.offered as f64 / d);
            self.unknown_share.add(trace.unknown as f64 / d);
        }
        let steps = trace.decisions + trace.timers;
        if steps > 0 {
            self.time_share.add(trace.timers as f64 / steps as f64);
        }
        if let Some(fires) = &trace.fires {
            for (m, &n) in self.rule_fires.iter_mut().zip(fires) {
                m.add(n);
            }
        }
    }

    /// Add another tally's games (the same variant and seats).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        zip_merge(&mut self.seat_wins, &other.seat_wins, Share::merge);
        self.first_turn_wins.merge(&other.first_turn_wins);
        self.length.merge(&other.length);
        self.turns.merge(&other.turns);
        self.decisiveness.merge(&other.decisiveness);
        self.lead_changes.merge(&other.lead_changes);
        self.comeback.merge(&other.comeback);
        self.lead_margin.merge(&other.lead_margin);
        self.unfinished.merge(&other.unfinished);
        self.no_winner.merge(&other.no_winner);
        self.tied.merge(&other.tied);
        self.score_margin.merge(&other.score_margin);
        zip_merge(&mut self.action_uses, &other.action_uses, Mean::merge);
        zip_merge(&mut self.used_and_won, &other.used_and_won, Share::merge);
        zip_merge(
            &mut self.unused_and_won,
            &other.unused_and_won,
            Share::merge,
        );
        self.branching.merge(&other.branching);
        self.unknown_share.merge(&other.unknown_share);
        self.time_share.merge(&other.time_share);
        for (reason, n) in &other.reasons {
            *self.reasons.entry(reason.clone()).or_default() += n;
        }
        zip_merge(&mut self.rule_fires, &other.rule_fires, Mean::merge);
    }

    /// The games whose rules' activation was measured.
    pub fn probed_games(&self) -> u64 {
        self.rule_fires.first().map_or(0, |m| m.n)
    }

    /// Each measured rule's activation, named by `rules` (ids, in `Activation::rules` order).
    pub fn rule_metrics(&self, rules: &[&str]) -> Vec<Metric> {
        rules
            .iter()
            .zip(&self.rule_fires)
            .map(|(id, m)| Metric {
                id: format!("rule-{id}-fires"),
                definition: format!(
                    "times a game ran the lines that tell a scenario of rule {id} apart (the probed games' mean)"
                ),
                value: m.value(),
                interval: m.interval(),
                n: m.n,
                stat: Stat::Mean(*m),
            })
            .collect()
    }

    /// Every metric, in report order; `actions` names the declared actions.
    pub fn metrics(&self, actions: &[&str]) -> Vec<Metric> {
        let players = self.seat_wins.len().max(1) as f64;
        let mut out = Vec::new();
        let share = |id: &str, definition: String, s: &Share| Metric {
            id: id.into(),
            definition,
            value: s.value(),
            interval: s.interval(),
            n: s.n,
            stat: Stat::Share(*s),
        };
        let mean = |id: &str, definition: String, m: &Mean| Metric {
            id: id.into(),
            definition,
            value: m.value(),
            interval: m.interval(),
            n: m.n,
            stat: Stat::Mean(*m),
        };
        out.push(share(
            "first-turn-advantage",
            format!(
                "the share of games the player who had the first turn won (a fair game: {:.3})",
                1.0 / players
            ),
            &self.first_turn_wins,
        ));
        for (s, w) in self.seat_wins.iter().enumerate() {
            out.push(share(
                &format!("seat-{s}-wins"),
                format!("the share of games seat {s} won (ties count for each winner)"),
                w,
            ));
        }
        out.push(mean("game-length", "actions a game".into(), &self.length));
        out.push(Metric {
            id: "game-length-spread".into(),
            definition: "the standard deviation of actions a game (its interval assumes lengths spread normally)".into(),
            value: self.length.sd(),
            interval: self.length.sd_interval(),
            n: self.length.n,
            stat: Stat::Spread(self.length),
        });
        out.push(mean("turns", "turns a game".into(), &self.turns));
        out.push(mean(
            "decisiveness",
            "of games one player won: the share of their turns after which the winner led for good (0: led from the first turn; near 1: took the lead at the end)".into(),
            &self.decisiveness,
        ));
        out.push(mean(
            "lead-changes",
            "times the sole leader changed, a game (who leads: the best score at each turn's start)".into(),
            &self.lead_changes,
        ));
        out.push(share(
            "comeback",
            "of games one player won: the share whose winner did not lead at half time".into(),
            &self.comeback,
        ));
        out.push(mean(
            "lead-margin",
            "at each turn's start: points between the leader and the closest other player, a game's mean (small: the trailing players stay close)".into(),
            &self.lead_margin,
        ));
        out.push(share(
            "stalemate",
            "the share of games still going at the step limit".into(),
            &self.unfinished,
        ));
        out.push(share(
            "no-winner",
            "of finished games: the share with no winner".into(),
            &self.no_winner,
        ));
        out.push(share(
            "tie",
            "of finished games: the share with several winners".into(),
            &self.tied,
        ));
        out.push(mean(
            "score-margin",
            "of games one player won: points between the winner and the best other player at the end".into(),
            &self.score_margin,
        ));
        out.push(mean(
            "branching",
            "moves the declared forms offered a player who acted (a game's mean)".into(),
            &self.branching,
        ));
        out.push(mean(
            "unknown-cards",
            "the share of actions that named a card their sender did not know (a game's share)"
                .into(),
            &self.unknown_share,
        ));
        out.push(mean(
            "time-share",
            "the share of steps that were time running out (a game's share)".into(),
            &self.time_share,
        ));
        for (a, name) in actions.iter().enumerate() {
            if let Some(uses) = self.action_uses.get(a) {
                out.push(mean(
                    &format!("action-{name}-uses"),
                    format!("times `{name}` was accepted, a game"),
                    uses,
                ));
            }
            if let (Some(used), Some(unused)) =
                (self.used_and_won.get(a), self.unused_and_won.get(a))
            {
                out.push(difference(
                    &format!("action-{name}-win-lift"),
                    format!(
                        "the win share of players who used `{name}` in a game less that of those who did not (dominant: large; dead: no use)"
                    ),
                    used,
                    unused,
                ));
            }
        }
        out
    }
}

fn kind_of<S: serde::Serializer>(stat: &Stat, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(stat.kind())
}

impl Stat {
    /// What kind of statistic it is: `share`, `mean`, `spread` or `lift`.
    pub fn kind(&self) -> &'static str {
        match self {
            Stat::Share(_) => "share",
            Stat::Mean(_) => "mean",
            Stat::Spread(_) => "spread",
            Stat::Lift(..) => "lift",
        }
    }

    /// The metric's value.
    pub fn value(&self) -> Option<f64> {
        match self {
            Stat::Share(s) => s.value(),
            Stat::Mean(m) => m.value(),
            Stat::Spread(m) => m.sd(),
            Stat::Lift(a, b) => a.value().zip(b.value()).map(|(p, q)| p - q),
        }
    }

    /// Its interval at a confidence (0 to 1): the metric's own kind of interval.
    pub fn interval_at(&self, confidence: f64) -> Option<(f64, f64)> {
        match self {
            Stat::Share(s) => s.interval_at(confidence),
            Stat::Mean(m) => m.interval_at(confidence),
            Stat::Spread(m) => m.sd_interval_at(confidence),
            Stat::Lift(a, b) => lift_interval(a, b, confidence),
        }
    }
}

/// Newcombe's interval of a share less another, from the two Wilson intervals.
fn lift_interval(a: &Share, b: &Share, confidence: f64) -> Option<(f64, f64)> {
    let (p, q) = (a.value()?, b.value()?);
    let (l1, u1) = a.interval_at(confidence)?;
    let (l2, u2) = b.interval_at(confidence)?;
    let d = p - q;
    Some((
        d - ((p - l1).powi(2) + (u2 - q).powi(2)).sqrt(),
        d + ((u1 - p).powi(2) + (q - l2).powi(2)).sqrt(),
    ))
}

/// The difference of two shares with its 95% interval (Newcombe's, from the two Wilson
/// intervals), standing on both shares' trials.
pub fn difference(id: &str, definition: String, a: &Share, b: &Share) -> Metric {
    let stat = Stat::Lift(*a, *b);
    Metric {
        id: id.into(),
        definition,
        value: stat.value(),
        interval: stat.interval_at(CONFIDENCE),
        n: a.n + b.n,
        stat: Stat::Lift(*a, *b),
    }
}

fn zip_merge<T>(into: &mut Vec<T>, from: &[T], merge: impl Fn(&mut T, &T))
where
    T: Default + Clone,
{
    if into.len() < from.len() {
        into.resize(from.len(), T::default());
    }
    for (a, b) in into.iter_mut().zip(from) {
        merge(a, b);
    }
}
