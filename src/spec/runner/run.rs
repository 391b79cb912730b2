//! Running one scenario: the game and house rules from the Givens, the Given position, the Given
//! actions and turn, then each When and Then in order; a failure names its step.

use super::then::describe_action;
use super::{BotPlayer, Concrete, SpecVariant, VariantProvider};
use crate::kernel::{Action, Arg, CardIdx, Face, Game, Loc, RuleError, Seat, Value};
use crate::spec::ast::*;
use std::collections::{HashMap, HashSet};

/// Why a scenario failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The failing step (or the scenario line when the failure is at the end).
    pub span: Span,
    /// What went wrong.
    pub message: String,
    /// What the step expected, when it compares.
    pub expected: Option<String>,
    /// What was found instead.
    pub found: Option<String>,
    /// For a script error: the script's own diagnostic, rendered.
    pub script: Option<String>,
}

impl Failure {
    pub(super) fn at(step: &Step, message: impl Into<String>) -> Failure {
        Failure {
            span: step.span,
            message: message.into(),
            expected: None,
            found: None,
            script: None,
        }
    }

    /// A failure caused by a rule error: a refusal's reason, or a script fault with its source.
    pub(super) fn rule(step: &Step, rules: &dyn SpecVariant, what: &str, e: &RuleError) -> Failure {
        let mut f = Failure::at(step, fault_text(rules, what, e));
        f.script = rules.render_fault(e);
        f
    }

    pub(super) fn mismatch(
        step: &Step,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Failure {
        Failure {
            span: step.span,
            message: "this step does not hold".into(),
            expected: Some(expected.into()),
            found: Some(found.into()),
            script: None,
        }
    }
}

/// The state of one running scenario.
pub(super) struct Run<'a> {
    pub(super) rules: &'a dyn SpecVariant,
    pub(super) game: Game,
    /// Log index where the current When began.
    pub(super) marker: usize,
    /// The last When's action refusal, waiting to be checked.
    pub(super) refusal: Option<(String, Span)>,
    /// Whether the last When was an action that applied.
    pub(super) last_accepted: bool,
    /// Card objects whose face a Given placed.
    pub(super) pinned: HashSet<CardIdx>,
    /// How many times each face has been placed.
    pub(super) placed: HashMap<Face, usize>,
    /// The length of the discard pile a Given set, if one did.
    pub(super) discard_given: Option<usize>,
    /// The computer player of each seat, from `<player> is a <level> bot`.
    pub(super) bots: Vec<Option<BotPlayer<'a>>>,
    /// The last `<player>'s bot acts`: who, what it chose, and the game just before.
    pub(super) bot_choice: Option<(Seat, Option<Action>, Game)>,
    pub(super) seed: u64,
}

/// Run one scenario (already checked) against its variant.
pub fn run(scenario: &Concrete, provider: &dyn VariantProvider) -> Result<(), Failure> {
    run_observed(scenario, provider, &mut |_| {})
}

/// A point of a scenario's run that an observer is told of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The Givens have set up the game; no When or Then has run.
    SetUp,
    /// A step after the Givens has run.
    Stepped,
}

/// Run one scenario, calling `observe` once its Givens have set up the game, before its first
/// When or Then, and after each step after them (a coverage probe tells the lines the setup ran
/// from those each step ran).
pub fn run_observed(
    scenario: &Concrete,
    provider: &dyn VariantProvider,
    observe: &mut dyn FnMut(Moment),
) -> Result<(), Failure> {
    let first = &scenario.steps[0];
    let Some(StepBody::NewGame { variant, .. }) = &first.body else {
        return Err(Failure::at(first, "the first step must start a game"));
    };
    let rules = provider.variant(&variant.node).map_err(|e| {
        Failure::at(
            first,
            format!("variant `{}` cannot be loaded: {e}", variant.node),
        )
    })?;
    let rules: &dyn SpecVariant = &*rules;

    // Givens up to the first When/Then: game and house rules, then placements, then the rest.
    let setup_end = scenario
        .steps
        .iter()
        .position(|s| s.kind != StepKind::Given)
        .unwrap_or(scenario.steps.len());
    let givens = &scenario.steps[..setup_end];
    let mut seed = 0u64;
    let mut house: Vec<(String, Value)> = Vec::new();
    let mut deck: Option<(&Step, Vec<Face>)> = None;
    for step in givens {
        match step.body.as_ref() {
            Some(StepBody::Seed(s)) => seed = *s,
            Some(StepBody::DeckIs(faces)) if deck.is_none() => {
                deck = Some((step, faces.iter().map(|f| f.node).collect()));
            }
            Some(StepBody::HouseRule { name, value }) => {
                house.push((name.node.clone(), literal_value(&value.node)))
            }
            Some(StepBody::HouseRules(rows)) => {
                for (name, value) in rows {
                    house.push((name.node.clone(), literal_value(&value.node)));
                }
            }
            _ => {}
        }
    }
    let table = match deck {
        None => rules.table().clone(),
        Some((step, faces)) => {
            let mut table = crate::kernel::Table::clone(rules.table());
            table.deck.cards = Some(
                crate::kernel::reduced_deck(faces).map_err(|e| Failure::at(step, e.to_string()))?,
            );
            std::sync::Arc::new(table)
        }
    };
    let mut run = match set_up(rules, table, scenario, setup_end, seed, &house) {
        Ok(run) => run,
        Err(refused) if refused.script.is_none() => {
            return setup_rejected(scenario, setup_end, refused);
        }
        Err(failure) => return Err(failure),
    };
    observe(Moment::SetUp);
    play_out(&mut run, scenario, setup_end, observe)
}

/// The game the Givens describe, set up: the game and house rules, the placements in their
/// order, then the Given actions, properties and turn as written. An error is the setup's
/// refusal (or a script fault, which carries its script).
fn set_up<'a>(
    rules: &'a dyn SpecVariant,
    table: std::sync::Arc<crate::kernel::Table>,
    scenario: &Concrete,
    setup_end: usize,
    seed: u64,
    house: &[(String, Value)],
) -> Result<Run<'a>, Failure> {
    let first = &scenario.steps[0];
    let Some(StepBody::NewGame { players, .. }) = &first.body else {
        return Err(Failure::at(first, "the first step must start a game"));
    };
    let givens = &scenario.steps[..setup_end];
    let names: Vec<String> = players.iter().map(|p| p.node.clone()).collect();
    let mut game =
        Game::new(table, names, seed, house).map_err(|e| Failure::at(first, e.to_string()))?;
    game.start(rules)
        .map_err(|e| Failure::rule(first, rules, "setup failed", &e))?;
    let mut run = Run {
        rules,
        game,
        marker: 0,
        refusal: None,
        last_accepted: false,
        pinned: HashSet::new(),
        placed: HashMap::new(),
        discard_given: None,
        bots: (0..players.len()).map(|_| None).collect(),
        bot_choice: None,
        seed,
    };
    // Placements in a fixed order so that each sees the cards the earlier ones left.
    let order = |b: &StepBody| match b {
        StepBody::Holds { .. } => Some(0),
        StepBody::DiscardPileIs(_) => Some(1),
        StepBody::DrawPileHas(_) => Some(2),
        StepBody::DrawPileIs(_) => Some(3),
        StepBody::Knows { .. } => Some(4),
        _ => None,
    };
    for rank in 0..5 {
        for step in givens {
            if let Some(body) = &step.body
                && order(body) == Some(rank)
            {
                run.place(step, body)?;
            }
        }
    }
    for step in givens {
        if let Some(body) = &step.body {
            run.verify(step, body)?;
        }
    }
    for step in givens {
        match step.body.as_ref() {
            Some(StepBody::Did { player, action }) => {
                let action = run.action(step, player, action)?;
                run.game.apply(rules, &action).map_err(|e| match e {
                    RuleError::Refused(r) => {
                        Failure::at(step, format!("this Given action was refused: {r}"))
                    }
                    fault => Failure::rule(step, rules, "script error", &fault),
                })?;
            }
            Some(StepBody::BotSeat { player, level }) => run.seat_bot(step, player, level)?,
            Some(StepBody::FaceState { player, slots, up }) => {
                run.turn_face(step, player, slots, *up)?
            }
            Some(StepBody::Property {
                player,
                name,
                value,
            }) => run.set_property(step, player.as_ref(), name, value)?,
            Some(StepBody::Turn(player)) => {
                let seat = run.seat(player);
                let in_setup = rules.table().phases[run.game.state.phase.0 as usize].setup;
                run.game
                    .transact(|g| {
                        if in_setup {
                            rules.end_setup(g, seat)
                        } else {
                            rules.start_turn(g, seat)
                        }
                    })
                    .map_err(|e| Failure::rule(step, rules, "could not start the turn", &e))?;
            }
            _ => {}
        }
    }
    // With no When yet, event steps see everything since the game began.
    run.marker = 0;
    Ok(run)
}

/// A setup the rules refused: the scenario holds when its steps are `the setup is rejected`
/// steps whose texts are in the reason; any other step cannot be checked without a game.
fn setup_rejected(scenario: &Concrete, setup_end: usize, refused: Failure) -> Result<(), Failure> {
    let mut expected = false;
    for step in &scenario.steps[setup_end..] {
        match &step.body {
            Some(StepBody::SetupRejected { reason }) => {
                expected = true;
                if let Some(reason) = reason
                    && !refused
                        .message
                        .to_lowercase()
                        .contains(&reason.node.to_lowercase())
                {
                    return Err(Failure::mismatch(
                        step,
                        format!("the setup is rejected with \"{}\"", reason.node),
                        format!("rejected: {}", refused.message),
                    ));
                }
            }
            _ if expected => {
                return Err(Failure::at(
                    step,
                    format!(
                        "the setup was rejected ({}), so there is no game for this step",
                        refused.message
                    ),
                ));
            }
            _ => break,
        }
    }
    if expected { Ok(()) } else { Err(refused) }
}

/// The Whens and Thens of a scenario whose setup went through.
fn play_out(
    run: &mut Run<'_>,
    scenario: &Concrete,
    setup_end: usize,
    observe: &mut dyn FnMut(Moment),
) -> Result<(), Failure> {
    for step in scenario.steps.iter().skip(setup_end) {
        let body = step
            .body
            .as_ref()
            .ok_or_else(|| Failure::at(step, "this step did not parse"))?;
        if let Some((reason, _)) = &run.refusal
            && !matches!(body, StepBody::Rejected { .. })
        {
            return Err(Failure::at(
                step,
                format!("the action before this step was refused: {reason}"),
            ));
        }
        let done = match step.kind {
            StepKind::When => run.when(step, body),
            StepKind::Then => run.then(step, body),
            StepKind::Given => run.late_given(step, body),
        };
        observe(Moment::Stepped);
        done?;
    }
    if let Some((reason, span)) = run.refusal.take() {
        return Err(Failure {
            span,
            message: format!("the action was refused: {reason}"),
            expected: Some("the action to apply (or a `Then the action is rejected` step)".into()),
            found: Some(format!("refused: {reason}")),
            script: None,
        });
    }
    Ok(())
}

fn fault_text(rules: &dyn SpecVariant, what: &str, e: &RuleError) -> String {
    match e {
        RuleError::Refused(r) => format!("{what}: refused: {r}"),
        fault => format!("{what}: {}", rules.describe_fault(fault)),
    }
}

/// A literal as a kernel value (for house rules).
pub fn literal_value(lit: &Literal) -> Value {
    match lit {
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Number(n) => match n.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Float(n.parse().unwrap_or(0.0)),
        },
        Literal::Card(f) => Value::Str(f.to_string()),
        Literal::Word(w) | Literal::Text(w) => Value::Str(w.clone()),
        Literal::List(items) => Value::List(items.iter().map(literal_value).collect()),
    }
}

pub(super) fn literal_text(lit: &Literal) -> String {
    match lit {
        Literal::Bool(b) => b.to_string(),
        Literal::Number(n) => n.parse::<f64>().map_or(n.clone(), |f| f.to_string()),
        Literal::Card(f) => f.to_string(),
        Literal::Word(w) | Literal::Text(w) => w.clone(),
        Literal::List(items) => format!(
            "[{}]",
            items
                .iter()
                .map(literal_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub(super) fn faces_text(faces: &[Option<Face>]) -> String {
    if faces.is_empty() {
        return "nothing".into();
    }
    faces
        .iter()
        .map(|f| f.map_or("_".to_string(), |f| f.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Run<'_> {
    pub(super) fn seat(&self, name: &Name) -> Seat {
        self.game.state.seat_of(&name.node).unwrap_or(Seat(0))
    }

    /// The card a step means by `face`. A face the deck has once is that card. A face it has
    /// more than once (Cambia's two jokers) is the one in `holder`'s hand (the player the step
    /// is about: who acts, who knows); failing that, the only one outside the draw pile. Two at
    /// the first of these that has any make the step ambiguous: it must name a slot instead.
    pub(super) fn card(
        &self,
        step: &Step,
        face: Face,
        holder: Option<Seat>,
    ) -> Result<CardIdx, Failure> {
        card_in(&self.game, face, holder).map_err(|message| Failure::at(step, message))
    }
}

/// The kernel action a scenario's `<actor> does <call>` means in `game` as it stands: slots of
/// named players, cards by face (resolved as `card_in` does, from the actor's hand). An unknown
/// player or an unclear card is an error saying so. Used by `deckspec play` for typed commands.
pub fn action_for(game: &Game, actor: Seat, call: &ActionCall) -> Result<Action, String> {
    let seat_of = |name: &Name| {
        game.state.seat_of(&name.node).ok_or_else(|| {
            format!(
                "there is no player `{}`: the players are {}",
                name.node,
                game.state.players.join(", ")
            )
        })
    };
    let args = call
        .args
        .iter()
        .map(|a| {
            Ok(match &a.node {
                ArgExpr::Word(w) => Arg::Word(w.clone()),
                ArgExpr::Number(n) => match n.parse::<i64>() {
                    Ok(i) => Arg::Int(i),
                    Err(_) => Arg::Float(n.parse().map_err(|_| format!("`{n}` is not a number"))?),
                },
                ArgExpr::Card(face) => Arg::Card(card_in(game, *face, Some(actor))?),
                ArgExpr::Slot { owner, slot } => Arg::Slot {
                    seat: match owner {
                        Some(o) => seat_of(o)?,
                        None => actor,
                    },
                    slot: *slot,
                },
                ArgExpr::Drawn => Arg::Drawn,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Action {
        seat: actor,
        name: call.name.node.as_str().into(),
        args,
    })
}

/// The card `face` means in `game` (see `Run::card`), or why it is not clear which.
pub fn card_in(game: &Game, face: Face, holder: Option<Seat>) -> Result<CardIdx, String> {
    let st = &game.state;
    let all: Vec<CardIdx> = (0..st.cards.len())
        .filter_map(|i| u16::try_from(i).ok().map(CardIdx))
        .filter(|c| st.face(*c) == face)
        .collect();
    match all.as_slice() {
        [] => {
            return Err(format!("there is no {face} in this game's deck"));
        }
        [one] => return Ok(*one),
        _ => {}
    }
    if let Some(seat) = holder {
        let held: Vec<CardIdx> = st
            .hand(seat)
            .iter()
            .flatten()
            .copied()
            .filter(|c| st.face(*c) == face)
            .collect();
        match held.as_slice() {
            [] => {}
            [one] => return Ok(*one),
            several => return Err(ambiguous(game, face, several, Some(seat))),
        }
    }
    let draw = game.table.draw_pile;
    let out: Vec<CardIdx> = all
        .iter()
        .copied()
        .filter(|c| draw.is_none_or(|d| st.cards[c.0 as usize].loc != Loc::Pile(d)))
        .collect();
    match out.as_slice() {
        [one] => Ok(*one),
        [] => Err(ambiguous(game, face, &all, None)),
        several => Err(ambiguous(game, face, several, None)),
    }
}

/// Why `face` could mean any of `cards`.
fn ambiguous(game: &Game, face: Face, cards: &[CardIdx], holder: Option<Seat>) -> String {
    let st = &game.state;
    let slots: Vec<String> = cards
        .iter()
        .filter_map(|c| match st.cards[c.0 as usize].loc {
            Loc::Hand { slot, .. } => Some(slot.to_string()),
            Loc::Pile(_) => None,
        })
        .collect();
    match holder {
        Some(seat) => format!(
            "{} holds {} {face} (slots {}): write `slot {}` instead of `{face}` to say which",
            st.players[seat.index()],
            cards.len(),
            and_list(&slots),
            slots.first().map_or("N", String::as_str)
        ),
        None => {
            let table = &game.table;
            let places: Vec<String> = cards
                .iter()
                .map(|c| match st.cards[c.0 as usize].loc {
                    Loc::Pile(p) if Some(p) == table.discard_pile => "the discard pile".into(),
                    Loc::Pile(p) if Some(p) == table.draw_pile => "the draw pile".into(),
                    Loc::Pile(p) => format!("the pile `{}`", table.piles[p.0 as usize].name),
                    Loc::Hand { .. } => super::then::describe_loc(game, *c),
                })
                .fold(Vec::<(String, usize)>::new(), |mut groups, place| {
                    match groups.iter_mut().find(|(p, _)| *p == place) {
                        Some((_, n)) => *n += 1,
                        None => groups.push((place, 1)),
                    }
                    groups
                })
                .into_iter()
                .map(|(place, n)| match n {
                    1 => place,
                    n => format!("{n} in {place}"),
                })
                .collect();
            let example = cards.iter().find_map(|c| match st.cards[c.0 as usize].loc {
                Loc::Hand { .. } => Some(super::then::describe_loc(game, *c)),
                Loc::Pile(_) => None,
            });
            match example {
                Some(example) => format!(
                    "there are {} {face} ({}): write the slot (`{example}`) instead of `{face}` to say which",
                    cards.len(),
                    and_list(&places)
                ),
                None => format!(
                    "there are {} {face} ({}): this step does not say which",
                    cards.len(),
                    and_list(&places)
                ),
            }
        }
    }
}

impl Run<'_> {
    pub(super) fn value_text(&self, v: &Value) -> String {
        let st = &self.game.state;
        match v {
            Value::Unit => "none".into(),
            Value::Card(c) => st.face(*c).to_string(),
            Value::Player(s) => st.players[s.index()].clone(),
            Value::Float(f) => f.to_string(),
            Value::Int(i) => (*i as f64).to_string(),
            Value::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|i| self.value_text(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.to_string(),
        }
    }

    /// The card a `knows` step means; `holder` is the player who knows.
    pub(super) fn target(
        &self,
        step: &Step,
        holder: Seat,
        target: &KnowTarget,
    ) -> Result<CardIdx, Failure> {
        match target {
            KnowTarget::Card(face) => self.card(step, *face, Some(holder)),
            KnowTarget::Slot { owner, slot } => {
                let seat = self.seat(owner);
                self.game
                    .state
                    .hand(seat)
                    .get(*slot as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| {
                        Failure::at(step, format!("{}'s slot {slot} is empty", owner.node))
                    })
            }
        }
    }

    pub(super) fn action(
        &self,
        step: &Step,
        player: &Name,
        call: &ActionCall,
    ) -> Result<Action, Failure> {
        action_for(&self.game, self.seat(player), call).map_err(|e| Failure::at(step, e))
    }

    pub(super) fn seat_bot(
        &mut self,
        step: &Step,
        player: &Name,
        level: &Spanned<String>,
    ) -> Result<(), Failure> {
        let seat = self.seat(player);
        let bot = self
            .rules
            .bot(seat, &level.node, &self.game, self.seed)
            .ok_or_else(|| Failure::at(step, format!("there is no bot level `{}`", level.node)))?;
        self.bots[seat.index()] = Some(bot);
        Ok(())
    }

    pub(super) fn late_given(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        match body {
            StepBody::BotSeat { player, level } => self.seat_bot(step, player, level),
            StepBody::FaceState { player, slots, up } => self.turn_face(step, player, slots, *up),
            StepBody::Property {
                player,
                name,
                value,
            } => self.set_property(step, player.as_ref(), name, value),
            StepBody::Did { .. } | StepBody::Knows { .. } | StepBody::Turn(_) => {
                let marker = self.game.event_count();
                match body {
                    StepBody::Knows { .. } => self.place(step, body)?,
                    StepBody::Did { player, action } => {
                        let action = self.action(step, player, action)?;
                        self.game.apply(self.rules, &action).map_err(|e| match e {
                            RuleError::Refused(r) => {
                                Failure::at(step, format!("this Given action was refused: {r}"))
                            }
                            fault => Failure::rule(step, self.rules, "script error", &fault),
                        })?;
                    }
                    StepBody::Turn(player) => {
                        let seat = self.seat(player);
                        let rules = self.rules;
                        self.game
                            .transact(|g| rules.start_turn(g, seat))
                            .map_err(|e| {
                                Failure::rule(step, rules, "could not start the turn", &e)
                            })?;
                    }
                    _ => unreachable!(),
                }
                self.marker = self.marker.min(marker);
                Ok(())
            }
            _ => Err(Failure::at(
                step,
                "this Given comes after a When or Then: cards, seeds and house rules can only be set before the first When",
            )),
        }
    }

    // ------------------------------------------------------------ Whens

    pub(super) fn when(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        self.marker = self.game.event_count();
        self.refusal = None;
        self.last_accepted = false;
        let rules = self.rules;
        match body {
            StepBody::Does { player, action } => {
                let action = self.action(step, player, action)?;
                match self.game.apply(rules, &action) {
                    Ok(()) => self.last_accepted = true,
                    Err(RuleError::Refused(reason)) => self.refusal = Some((reason, step.span)),
                    Err(fault) => return Err(Failure::rule(step, rules, "script error", &fault)),
                }
            }
            StepBody::BotActs { player } => {
                let seat = self.seat(player);
                let Some(bot) = self.bots[seat.index()].as_mut() else {
                    return Err(Failure::at(
                        step,
                        format!(
                            "{} is not a bot: write `Given {} is a <level> bot` first",
                            player.node, player.node
                        ),
                    ));
                };
                let before = self.game.trial();
                let choice = bot(&self.game)
                    .map_err(|e| Failure::rule(step, rules, "the bot failed", &e))?;
                if let Some(action) = &choice {
                    match self.game.apply(rules, action) {
                        Ok(()) => self.last_accepted = true,
                        Err(RuleError::Refused(reason)) => {
                            self.refusal = Some((
                                format!(
                                    "{reason} (the bot chose {})",
                                    describe_action(&before, action)
                                ),
                                step.span,
                            ))
                        }
                        Err(fault) => {
                            return Err(Failure::rule(step, rules, "script error", &fault));
                        }
                    }
                }
                self.bot_choice = Some((seat, choice, before));
            }
            StepBody::TimePasses { millis } => {
                self.game
                    .advance(rules, *millis)
                    .map_err(|e| Failure::rule(step, rules, "a timer failed", &e))?;
            }
            StepBody::TimeRunsOut => {
                let fired = self
                    .game
                    .run_out(rules)
                    .map_err(|e| Failure::rule(step, rules, "a timer failed", &e))?;
                if !fired {
                    return Err(Failure::at(step, "no timer is running"));
                }
            }
            _ => return Err(Failure::at(step, "this step is not a When step")),
        }
        Ok(())
    }
}
