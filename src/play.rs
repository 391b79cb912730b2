//! A play-test session: one person against the variant's bots (`deckspec play`). The session
//! takes commands in the scenario language's action syntax and answers with text; it does no
//! I/O, so the command line (terminal or pipe) and tests drive it alike.
//!
//! What the player sees is the kernel's own rendering for their seat (`Game::view`,
//! `Game::rendered_events`): hidden information is never a second implementation here.

use crate::kernel::{CardView, Game, RuleError, Rules, Seat, Value, View};

use crate::record::{RecordMark, Recorder};
use crate::script::Variant;
use crate::script::bots::Bot;
use std::fmt::Write as _;

/// Bot actions in a row after which the session stops asking bots (a bot loop is a bot bug).
const MAX_BOT_ACTIONS_IN_A_ROW: usize = 10_000;

/// How a session was set up.
pub struct Setup<'v> {
    /// The variant to play.
    pub variant: &'v Variant,
    /// Player names, seat by seat; `me` is the person's seat.
    pub players: Vec<String>,
    /// The person's seat.
    pub me: Seat,
    /// A bot level for every seat but `me` (ignored there).
    pub levels: Vec<String>,
    /// The game's seed: the same seed deals the same game.
    pub seed: u64,
    /// House rules, and as the person wrote them (for a recording).
    pub house: Vec<(String, Value)>,
    /// House rules as written, for the recording's Givens.
    pub house_text: Vec<(String, String)>,
}

/// What one command did.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Text to show (help, a refusal, an error in the command).
    Text(String),
    /// The game moved on: show the events and the table.
    Moved,
    /// The person asked to stop.
    Quit,
}

/// A state to go back to with `undo`.
struct Snapshot {
    game: Game,
    bots: Vec<Option<Bot>>,
    mark: RecordMark,
    shown: usize,
}

/// A game in progress between a person and bots, recorded as it goes.
pub struct Session<'v> {
    variant: &'v Variant,
    recorder: Recorder<'v>,
    /// The game.
    pub game: Game,
    me: Seat,
    bots: Vec<Option<Bot>>,
    undo: Vec<Snapshot>,
    /// Events shown to the person so far (an event number).
    shown: usize,
    seed: u64,
}

impl<'v> Session<'v> {
    /// Deal the game and let the bots act until the person is needed.
    pub fn new(setup: Setup<'v>) -> Result<Session<'v>, String> {
        let variant = setup.variant;
        let recorder = Recorder::new(variant, &setup.house_text);
        let mut game = Game::new(
            variant.table().clone(),
            setup.players.clone(),
            setup.seed,
            &setup.house,
        )
        .map_err(|e| e.to_string())?;
        game.start(&recorder).map_err(|e| e.to_string())?;
        recorder.start(&game, setup.seed);
        let book = variant.bots.as_ref();
        let mut bots = Vec::with_capacity(setup.players.len());
        for (i, level) in setup.levels.iter().enumerate().take(setup.players.len()) {
            let seat = Seat(u8::try_from(i).map_err(|_| "too many players".to_string())?);
            if seat == setup.me {
                bots.push(None);
                continue;
            }
            let book = book.ok_or_else(|| {
                format!("{} has no computer players (no bots.yaml)", variant.name)
            })?;
            let bot = book
                .bot(seat, level, &game, setup.seed)
                .ok_or_else(|| format!("{} has no `{level}` bot level", variant.name))?;
            bots.push(Some(bot));
        }
        let mut session = Session {
            variant,
            recorder,
            game,
            me: setup.me,
            bots,
            undo: Vec::new(),
            shown: 0,
            seed: setup.seed,
        };
        session.bots_act()?;
        Ok(session)
    }

    /// Run one command: an action in the scenario syntax (`replace slot 2`), `wait [N]`,
    /// `help`, `undo` or `quit`.
    pub fn command(&mut self, line: &str) -> Result<Reply, String> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, _, _) => Ok(Reply::Text(String::new())),
            (Some("quit" | "exit"), None, _) => Ok(Reply::Quit),
            (Some("help" | "?"), None, _) => Ok(Reply::Text(self.help())),
            (Some("undo"), None, _) => self.take_back(),
            (Some("wait"), None, _) => self.wait(None),
            (Some("wait"), Some(seconds), None) => {
                let seconds: f64 = seconds
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
                    .ok_or_else(|| {
                        format!("`wait {seconds}`: give seconds from 0.001 to 86400, or `wait` for the next timer")
                    })?;
                self.wait(Some((seconds * 1000.0).round() as u64))
            }
            _ => self.act(line),
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            game: self.game.clone(),
            bots: self.bots.clone(),
            mark: self.recorder.mark(),
            shown: self.shown,
        }
    }

    fn act(&mut self, line: &str) -> Result<Reply, String> {
        let action = command_action(&self.game, self.me, line)?;
        let table = &self.game.table;
        if table.action_index(&action.name).is_none() {
            let hint =
                crate::suggest::suggestion(&action.name, table.actions.iter().map(|a| &*a.name))
                    .map(|s| format!(": {s}"))
                    .unwrap_or_default();
            return Ok(Reply::Text(format!(
                "refused: `{}` is not an action of {}{hint}",
                action.name, table.variant
            )));
        }
        let before = self.snapshot();
        match self.game.apply(&self.recorder, &action) {
            Ok(()) => {
                self.undo.push(before);
                self.bots_act()?;
                Ok(Reply::Moved)
            }
            Err(RuleError::Refused(reason)) => {
                self.recorder.rewind(&before.mark);
                Ok(Reply::Text(format!("refused: {reason}")))
            }
            Err(fault) => Err(self.fault(&fault)),
        }
    }

    fn wait(&mut self, millis: Option<u64>) -> Result<Reply, String> {
        let before = self.snapshot();
        let result = match millis {
            Some(ms) => self.game.advance(&self.recorder, ms).map(|()| true),
            None => self.game.run_out(&self.recorder),
        };
        match result {
            Ok(false) => Ok(Reply::Text(
                "no timer is running: nothing to wait for".into(),
            )),
            Ok(true) => {
                self.recorder.clock_reached(self.game.state.clock);
                self.undo.push(before);
                self.bots_act()?;
                Ok(Reply::Moved)
            }
            Err(e) => Err(self.fault(&e)),
        }
    }

    fn take_back(&mut self) -> Result<Reply, String> {
        let Some(snapshot) = self.undo.pop() else {
            return Ok(Reply::Text("nothing to undo".into()));
        };
        self.game = snapshot.game;
        self.bots = snapshot.bots;
        self.recorder.rewind(&snapshot.mark);
        self.shown = snapshot.shown.min(self.game.event_count());
        Ok(Reply::Text(
            "took back your last move and the bots' replies".into(),
        ))
    }

    fn fault(&self, error: &RuleError) -> String {
        match self.variant.diagnose(error) {
            Some(d) => format!("script error: {}", d.message),
            None => format!("script error: {error}"),
        }
    }

    /// Let the bots act, one action at a time, until none wants to.
    fn bots_act(&mut self) -> Result<(), String> {
        let Some(book) = self.variant.bots.as_ref() else {
            return Ok(());
        };
        for _ in 0..MAX_BOT_ACTIONS_IN_A_ROW {
            if self.game.is_over() {
                return Ok(());
            }
            let mut acted = false;
            for i in 0..self.bots.len() {
                let Some(bot) = self.bots[i].as_mut() else {
                    continue;
                };
                let Some(action) = book.decide(bot, &self.game).map_err(|e| self.fault(&e))? else {
                    continue;
                };
                match self.game.apply(&self.recorder, &action) {
                    Ok(()) => {
                        acted = true;
                        break;
                    }
                    Err(RuleError::Refused(_)) => {}
                    Err(e) => return Err(self.fault(&e)),
                }
            }
            if !acted {
                return Ok(());
            }
        }
        Err(format!(
            "the bots acted {MAX_BOT_ACTIONS_IN_A_ROW} times in a row without the game needing you: a bot script bug"
        ))
    }

    /// The person's legal actions now, as commands (`replace slot 2`).
    pub fn commands(&self) -> Vec<String> {
        self.game
            .legal_actions(self.variant)
            .into_iter()
            .filter(|a| a.seat == self.me)
            .map(|a| crate::record::action_command(&self.game, &a))
            .collect()
    }

    /// The legal actions of the person now, each with its doc from `variant.yaml`.
    pub fn help(&self) -> String {
        let mut out = String::new();
        let mine: Vec<_> = self
            .game
            .legal_actions(self.variant)
            .into_iter()
            .filter(|a| a.seat == self.me)
            .collect();
        if mine.is_empty() {
            out.push_str("you have no legal action now: `wait` runs the clock to the next timer\n");
        } else {
            out.push_str("you can do:\n");
            // One action's ways (a two-slot peek has a dozen) are listed up to a few, its doc
            // once: the list stays a screenful.
            const WAYS_SHOWN: usize = 3;
            let mut i = 0;
            while i < mine.len() {
                let name = &mine[i].name;
                let ways = mine[i..].iter().take_while(|a| a.name == *name).count();
                let doc = self
                    .variant
                    .action_docs
                    .get(&**name)
                    .map_or("", String::as_str);
                let shown = if ways > WAYS_SHOWN + 1 {
                    WAYS_SHOWN
                } else {
                    ways
                };
                for (k, action) in mine[i..i + shown].iter().enumerate() {
                    let command = crate::record::action_command(&self.game, action);
                    let doc = if k == 0 { doc } else { "" };
                    let line = format!("  {command:<30}  {doc}");
                    let _ = writeln!(out, "{}", line.trim_end());
                }
                if shown < ways {
                    let _ = writeln!(out, "  … and {} more `{name}` commands", ways - shown);
                }
                i += ways;
            }
        }
        out.push_str("also: wait [SECONDS], undo, help, quit\n");
        out
    }

    /// The events since the last call, as the person received them, one per line.
    pub fn new_events(&mut self) -> String {
        let events = self.game.rendered_events(self.me, self.shown);
        self.shown = self.game.event_count();
        let mut out = String::new();
        for event in events {
            let _ = writeln!(out, "  {}", event_text(&event));
        }
        out
    }

    /// The table as the person may see it.
    pub fn screen(&self) -> String {
        screen(&self.game.view(self.me), self.me)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The end: winners, reason and every player's score.
    pub fn result(&mut self) -> String {
        let st = &self.game.state;
        let mut out = String::new();
        if let Some(outcome) = &st.outcome {
            let winners: Vec<&str> = outcome
                .winners
                .iter()
                .map(|s| st.players[s.index()].as_str())
                .collect();
            let _ = writeln!(
                out,
                "game over ({}): {}",
                outcome.reason,
                if winners.is_empty() {
                    "nobody wins".to_string()
                } else {
                    format!("{} won", winners.join(" and "))
                }
            );
        } else {
            out.push_str("game not finished\n");
        }
        for (seat, score) in self.scores().iter().enumerate() {
            let _ = writeln!(out, "  {}: {score} points", st.players[seat]);
        }
        out
    }

    fn scores(&self) -> Vec<i64> {
        (0..self.game.state.player_count())
            .map(|s| {
                self.variant
                    .score(&mut self.game.trial(), Seat(s as u8))
                    .unwrap_or(0)
            })
            .collect()
    }

    /// The game so far as a scenario that replays it (`record`).
    pub fn recording(&self, header: &str) -> String {
        let title = format!("{} game of seed {} played", self.variant.name, self.seed);
        let scores = self.scores();
        let text = self
            .recorder
            .finish(&self.game, &title, "{HEADER}", &scores);
        let comment: String = header.lines().map(|l| format!("# {l}\n")).collect();
        text.replacen("# {HEADER}\n", &comment, 1)
    }
}

/// A card as the table shows it: `7S`, `JK`, or `??` when the person does not know it.
fn card_text(card: &Option<CardView>) -> String {
    match card {
        None => "__".to_string(),
        Some(CardView { face: None, .. }) => "??".to_string(),
        Some(CardView { face: Some(f), .. }) => {
            let rank = match f.rank.as_str() {
                "Ace" => "A",
                "Jack" => "J",
                "Queen" => "Q",
                "King" => "K",
                "Joker" => return "JK".to_string(),
                other => other,
            };
            let suit = f
                .suit
                .as_deref()
                .and_then(|s| s.chars().next())
                .unwrap_or('?');
            format!("{rank}{suit}")
        }
    }
}

/// The action `line` means for `seat` now, in the scenario's action syntax (the step after
/// `<player> does`): what a person types at `deckspec play` and an agent's caller names.
pub fn command_action(
    game: &Game,
    seat: Seat,
    line: &str,
) -> Result<crate::kernel::Action, String> {
    use crate::spec::ast::{StepBody, StepKind};
    let me = &game.state.players[seat.index()];
    let text = format!("{me} does {line}");
    let body = crate::spec::parse::parse_step_body(&text, 0, StepKind::When)
        .map_err(|p| format!("`{line}`: {}", p.message))?;
    let StepBody::Does { action, .. } = body else {
        return Err(format!("`{line}` is not an action"));
    };
    crate::spec::runner::action_for(game, seat, &action)
}

/// The table as `me` may see it in `view`: phase, turn, timers, piles and every hand.
pub fn screen(view: &View, me: Seat) -> String {
    let mut out = String::new();
    let turn = view
        .current
        .as_ref()
        .map_or("nobody's turn".to_string(), |p| match p.id == view.you.id {
            true => "your turn".to_string(),
            false => format!("{}'s turn", p.id),
        });
    let _ = write!(out, "phase {} · {turn}", view.phase);
    for timer in &view.timers {
        let _ = write!(
            out,
            " · {} {:.1}s",
            timer.name,
            timer.remaining_ms as f64 / 1000.0
        );
    }
    out.push('\n');
    let piles: Vec<String> = view
        .piles
        .iter()
        .map(|(name, pile)| match &pile.top {
            Some(top) => format!(
                "{name} {} (top {})",
                pile.size,
                card_text(&Some(top.clone()))
            ),
            None => format!("{name} {}", pile.size),
        })
        .collect();
    let _ = writeln!(out, "{}", piles.join(" · "));
    for (i, player) in view.players.iter().enumerate() {
        let slots: Vec<String> = player
            .hand
            .iter()
            .enumerate()
            .map(|(slot, c)| format!("{slot}:{}", card_text(c)))
            .collect();
        let who = if i == me.index() && player.id != "you" {
            format!("{} (you)", player.id)
        } else {
            player.id.clone()
        };
        let _ = writeln!(out, "{who:<12} {}", slots.join(" "));
    }
    out
}

/// An event as a line: `player_draw: user bob, card ??, stockpileSize 37`.
fn event_text(event: &serde_json::Value) -> String {
    let Some(fields) = event.as_object() else {
        return event.to_string();
    };
    let kind = fields
        .get("type")
        .and_then(|t| t.as_str())
        .unwrap_or("event");
    let parts: Vec<String> = fields
        .iter()
        .filter(|(k, _)| *k != "type")
        .map(|(k, v)| format!("{k} {}", value_text(v)))
        .collect();
    if parts.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {}", parts.join(", "))
    }
}

fn value_text(value: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match value {
        // A card: its face or `??`, then whatever else the event says of it.
        J::Object(map) if map.get("id").is_some_and(looks_like_card_id) => {
            let card = serde_json::from_value::<CardView>(value.clone())
                .map(|c| card_text(&Some(c)))
                .unwrap_or_else(|_| "??".to_string());
            let extra: Vec<String> = map
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "id" | "rank" | "suit" | "value"))
                .map(|(k, v)| format!("{k} {}", value_text(v)))
                .collect();
            if extra.is_empty() {
                card
            } else {
                format!("{card} ({})", extra.join(", "))
            }
        }
        // A player.
        J::Object(map) if map.len() == 1 && map.contains_key("id") => map["id"]
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string),
        J::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k} {}", value_text(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        J::Array(items) => format!(
            "[{}]",
            items.iter().map(value_text).collect::<Vec<_>>().join(", ")
        ),
        J::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Card ids are eight hex digits; player ids are names.
fn looks_like_card_id(id: &serde_json::Value) -> bool {
    id.as_str()
        .is_some_and(|s| s.len() == 8 && s.chars().all(|c| c.is_ascii_hexdigit()))
}
