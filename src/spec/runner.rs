//! Run scenarios: build the Given position, perform the Whens, check the Thens, and say exactly
//! which step failed, what was expected and what was found.
//!
//! Variants come in through `VariantProvider`; the runner knows nothing of scripts.

use super::ast::*;
use super::diag::{Problem, suggestion};
use crate::kernel::{
    Action, Arg, CardIdx, Face, Game, Loc, Payload, RuleError, Rules, Seat, Value,
};
use serde_json::Value as Json;
use std::collections::HashSet;
use std::sync::Arc;

/// A variant as the runner needs it.
pub trait SpecVariant: Rules + Send + Sync {
    /// The rule ids of the variant's rulebook.
    fn rule_ids(&self) -> Vec<String>;
    /// A script fault in one line: the message and `at FILE:LINE:COL`.
    fn describe_fault(&self, error: &RuleError) -> String;
    /// A script fault as a rendered diagnostic on the script's source, if it has a position.
    fn render_fault(&self, error: &RuleError) -> Option<String>;
    /// The computer-player levels of the variant (empty when it has none).
    fn bot_levels(&self) -> Vec<String>;
    /// A computer player at `level` for `seat` of `game`, seeded by `seed`: each call decides
    /// an action to try, or `None` to wait, from the bot's own view.
    fn bot<'a>(&'a self, seat: Seat, level: &str, game: &Game, seed: u64) -> Option<BotPlayer<'a>>;
}

/// A computer player as the runner drives it.
pub type BotPlayer<'a> = Box<dyn FnMut(&Game) -> Result<Option<Action>, RuleError> + Send + 'a>;

/// Where the runner gets variants from.
pub trait VariantProvider {
    /// The variant, or a rendered explanation of why it cannot be loaded.
    fn variant(&self, name: &str) -> Result<Arc<dyn SpecVariant>, String>;
    /// Names of the variants there are, for suggestions.
    fn names(&self) -> Vec<String>;
}

/// One scenario ready to run: steps from the backgrounds and the scenario, placeholders filled.
#[derive(Clone, Debug)]
pub struct Concrete {
    pub name: String,
    pub span: Span,
    pub tags: Vec<String>,
    pub steps: Vec<Step>,
    /// Steps whose text came from an Examples row: the row, for locating problems.
    pub example_row: Option<Span>,
}

/// Expand a feature into runnable scenarios (backgrounds prepended, outlines per row).
/// Problems are returned for outline steps that do not parse after substitution.
pub fn expand(feature: &Feature) -> (Vec<Concrete>, Vec<Problem>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let feature_tags: Vec<String> = feature.tags.iter().map(|t| t.name.clone()).collect();
    let mut blocks: Vec<(Vec<String>, Vec<&Step>, &Vec<Scenario>)> = Vec::new();
    let feature_bg: Vec<&Step> = feature
        .background
        .iter()
        .flat_map(|b| b.steps.iter())
        .collect();
    blocks.push((feature_tags.clone(), feature_bg.clone(), &feature.scenarios));
    for rule in &feature.rules {
        let mut tags = feature_tags.clone();
        tags.extend(rule.tags.iter().map(|t| t.name.clone()));
        let mut bg = feature_bg.clone();
        bg.extend(rule.background.iter().flat_map(|b| b.steps.iter()));
        blocks.push((tags, bg, &rule.scenarios));
    }
    for (tags, background, scenarios) in blocks {
        for scenario in scenarios {
            let mut scenario_tags = tags.clone();
            scenario_tags.extend(scenario.tags.iter().map(|t| t.name.clone()));
            let steps: Vec<Step> = background
                .iter()
                .map(|s| (*s).clone())
                .chain(scenario.steps.iter().cloned())
                .collect();
            if !scenario.is_outline {
                out.push(Concrete {
                    name: scenario.name.clone(),
                    span: scenario.span,
                    tags: scenario_tags,
                    steps,
                    example_row: None,
                });
                continue;
            }
            for examples in &scenario.examples {
                let Some((header, rows)) = examples.table.rows.split_first() else {
                    continue;
                };
                let mut example_tags = scenario_tags.clone();
                example_tags.extend(examples.tags.iter().map(|t| t.name.clone()));
                for (n, row) in rows.iter().enumerate() {
                    let subst = |text: &str| -> String {
                        let mut text = text.to_string();
                        for (h, cell) in header.cells.iter().zip(&row.cells) {
                            text = text.replace(&format!("<{}>", h.node), &cell.node);
                        }
                        text
                    };
                    let mut concrete_steps = Vec::new();
                    for step in &steps {
                        let mut step = step.clone();
                        if let Some(doc) = &mut step.doc {
                            doc.content = subst(&doc.content);
                        }
                        if step.body.is_none() {
                            let text = subst(&step.text);
                            let parsed = super::parse::parse_step_with(
                                &text,
                                step.text_span.start,
                                step.kind,
                                step.table.as_ref(),
                                step.doc.as_ref(),
                            );
                            match parsed {
                                Ok(body) => step.body = Some(body),
                                Err(found) => {
                                    for mut p in found {
                                        p.message =
                                            format!("{} (in Examples row {})", p.message, n + 1);
                                        p.span = step.text_span;
                                        problems.push(p);
                                    }
                                    continue;
                                }
                            }
                            step.text = text;
                        }
                        concrete_steps.push(step);
                    }
                    out.push(Concrete {
                        name: format!("{} ({})", subst(&scenario.name), n + 1),
                        span: scenario.span,
                        tags: example_tags.clone(),
                        steps: concrete_steps,
                        example_row: Some(row.span),
                    });
                }
            }
        }
    }
    (out, problems)
}

/// Static checks of one scenario against its variant: names of players, actions, house rules,
/// phases, properties, events and rule tags, each with a suggestion.
pub fn check(
    scenario: &Concrete,
    provider: &dyn VariantProvider,
    tag_spans: &[Tag],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(first) = scenario.steps.first() else {
        return vec![Problem::new(
            "a scenario needs steps, starting with `Given a <variant> game with players …`",
            scenario.span,
            "this scenario",
        )];
    };
    let Some(StepBody::NewGame { variant, players }) = &first.body else {
        return vec![Problem::new(
            "the first step must be `Given a <variant> game with players …`",
            first.span,
            "expected the game step here",
        )];
    };
    let v = match provider.variant(&variant.node) {
        Ok(v) => v,
        Err(reason) => {
            let names = provider.names();
            let help = suggestion(&variant.node, names.iter().map(String::as_str))
                .or_else(|| Some(format!("the variants are: {}", names.join(", "))));
            return vec![
                Problem::new(
                    format!("variant `{}` cannot be used: {reason}", variant.node),
                    variant.span,
                    "this variant",
                )
                .with_help(help),
            ];
        }
    };
    let table = v.table().clone();
    let names: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
    let mut seen_players = HashSet::new();
    for p in players {
        if !seen_players.insert(&p.node) {
            problems.push(Problem::new(
                format!("player `{}` is listed twice", p.node),
                p.span,
                "again here",
            ));
        }
    }
    let player = |n: &Name, problems: &mut Vec<Problem>| {
        if !names.contains(&n.node.as_str()) {
            problems.push(
                Problem::new(
                    format!("`{}` is not a player of this game", n.node),
                    n.span,
                    "unknown player",
                )
                .with_help(
                    suggestion(&n.node, names.iter().copied())
                        .or_else(|| Some(format!("the players are: {}", names.join(", ")))),
                ),
            );
        }
    };
    let rule_ids = v.rule_ids();
    for tag in tag_spans {
        if let Some(id) = tag.name.strip_prefix("rule:")
            && !rule_ids.iter().any(|r| r == id)
        {
            problems.push(
                Problem::new(
                    format!(
                        "rule `{id}` is not in rules/{}/rulebook.yaml",
                        table.variant
                    ),
                    tag.span,
                    "unknown rule",
                )
                .with_help(suggestion(id, rule_ids.iter().map(String::as_str))),
            );
        }
    }
    let known =
        |kind: &str, word: &Spanned<String>, candidates: Vec<&str>, problems: &mut Vec<Problem>| {
            if !candidates.contains(&word.node.as_str()) {
                problems.push(
                    Problem::new(
                        format!("`{}` is not {kind} of {}", word.node, table.variant),
                        word.span,
                        format!(
                            "unknown {}",
                            kind.trim_start_matches("a ").trim_start_matches("an ")
                        ),
                    )
                    .with_help(suggestion(&word.node, candidates.iter().copied())),
                );
            }
        };
    let actions: Vec<&str> = table.actions.iter().map(|a| &*a.name).collect();
    let house: Vec<&str> = table.house_rules.iter().map(|h| h.0.as_str()).collect();
    let phases: Vec<&str> = table.phases.iter().map(|p| p.name.as_str()).collect();
    let events: Vec<&str> = table.events.iter().map(|e| &**e).collect();
    for step in &scenario.steps {
        let Some(body) = &step.body else { continue };
        match body {
            StepBody::NewGame { .. } if !std::ptr::eq(step, first) => problems.push(Problem::new(
                "only the first step may start a game",
                step.span,
                "a second game step",
            )),
            StepBody::HouseRule { name, .. } => {
                known("a house rule", name, house.clone(), &mut problems)
            }
            StepBody::HouseRules(rows) => {
                for (name, _) in rows {
                    known("a house rule", name, house.clone(), &mut problems);
                }
            }
            StepBody::Holds { player: p, .. }
            | StepBody::HoldsCount { player: p, .. }
            | StepBody::SlotIs { player: p, .. }
            | StepBody::Turn(p)
            | StepBody::ScoreIs { player: p, .. }
            | StepBody::Receives { player: p } => player(p, &mut problems),
            StepBody::Knows { player: p, target } | StepBody::DoesNotKnow { player: p, target } => {
                player(p, &mut problems);
                if let KnowTarget::Slot { owner, .. } = target {
                    player(owner, &mut problems);
                }
            }
            StepBody::Did { player: p, action }
            | StepBody::Does { player: p, action }
            | StepBody::BotChose {
                player: p,
                action: Some(action),
            } => {
                player(p, &mut problems);
                known("an action", &action.name, actions.clone(), &mut problems);
                for arg in &action.args {
                    if let ArgExpr::Slot { owner: Some(o), .. } = &arg.node {
                        player(o, &mut problems);
                    }
                }
            }
            StepBody::Win(ps) => ps.iter().for_each(|p| player(p, &mut problems)),
            StepBody::BotSeat { player: p, level } => {
                player(p, &mut problems);
                let levels = v.bot_levels();
                if levels.is_empty() {
                    problems.push(Problem::new(
                        format!("{} has no computer players (no bots.yaml)", table.variant),
                        level.span,
                        "no such bot",
                    ));
                } else {
                    known(
                        "a bot level",
                        level,
                        levels.iter().map(String::as_str).collect(),
                        &mut problems,
                    );
                }
            }
            StepBody::BotActs { player: p }
            | StepBody::BotChose {
                player: p,
                action: None,
            } => player(p, &mut problems),
            StepBody::PhaseIs(phase) => known("a phase", phase, phases.clone(), &mut problems),
            StepBody::Property {
                player: p, name, ..
            } => {
                let key = name.node.replace(' ', "_");
                let vars: Vec<&str> = match p {
                    Some(p) => {
                        player(p, &mut problems);
                        table.player_vars.iter().map(|v| v.0.as_str()).collect()
                    }
                    None => table.game_vars.iter().map(|v| v.0.as_str()).collect(),
                };
                if !vars.contains(&key.as_str()) {
                    let kind = if p.is_some() {
                        "a player property"
                    } else {
                        "a property"
                    };
                    problems.push(
                        Problem::new(
                            format!("`{}` is not {kind} of {}", name.node, table.variant),
                            name.span,
                            "unknown property",
                        )
                        .with_help(
                            suggestion(&key, vars.iter().copied()).or_else(|| {
                                Some(format!("the properties are: {}", vars.join(", ")))
                            }),
                        ),
                    );
                }
            }
            StepBody::Sees {
                audience, event, ..
            } => {
                match audience {
                    Audience::Only(p) | Audience::Player(p) | Audience::NotPlayer(p) => {
                        player(p, &mut problems)
                    }
                    Audience::Everyone => {}
                }
                known("an event", event, events.clone(), &mut problems);
            }
            _ => {}
        }
    }
    problems
}

/// Why a scenario failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The failing step (or the scenario line when the failure is at the end).
    pub span: Span,
    pub message: String,
    pub expected: Option<String>,
    pub found: Option<String>,
    /// For a script error: the script's own diagnostic, rendered.
    pub script: Option<String>,
}

impl Failure {
    fn at(step: &Step, message: impl Into<String>) -> Failure {
        Failure {
            span: step.span,
            message: message.into(),
            expected: None,
            found: None,
            script: None,
        }
    }

    /// A failure caused by a rule error: a refusal's reason, or a script fault with its source.
    fn rule(step: &Step, rules: &dyn SpecVariant, what: &str, e: &RuleError) -> Failure {
        let mut f = Failure::at(step, fault_text(rules, what, e));
        f.script = rules.render_fault(e);
        f
    }

    fn mismatch(step: &Step, expected: impl Into<String>, found: impl Into<String>) -> Failure {
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
struct Run<'a> {
    rules: &'a dyn SpecVariant,
    game: Game,
    /// Log index where the current When began.
    marker: usize,
    /// The last When's action refusal, waiting to be checked.
    refusal: Option<(String, Span)>,
    /// Whether the last When was an action that applied.
    last_accepted: bool,
    pinned: HashSet<Face>,
    /// The computer player of each seat, from `<player> is a <level> bot`.
    bots: Vec<Option<BotPlayer<'a>>>,
    /// The last `<player>'s bot acts`: who, what it chose, and the game just before.
    bot_choice: Option<(Seat, Option<Action>, Game)>,
    seed: u64,
}

/// Run one scenario (already checked) against its variant.
pub fn run(scenario: &Concrete, provider: &dyn VariantProvider) -> Result<(), Failure> {
    let first = &scenario.steps[0];
    let Some(StepBody::NewGame { variant, players }) = &first.body else {
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
    for step in givens {
        match step.body.as_ref() {
            Some(StepBody::Seed(s)) => seed = *s,
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
    let names: Vec<String> = players.iter().map(|p| p.node.clone()).collect();
    let mut game = Game::new(rules.table().clone(), names, seed, &house)
        .map_err(|e| Failure::at(first, e.to_string()))?;
    game.start(rules)
        .map_err(|e| Failure::rule(first, rules, "setup failed", &e))?;
    let mut run = Run {
        rules,
        game,
        marker: 0,
        refusal: None,
        last_accepted: false,
        pinned: HashSet::new(),
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
        match step.kind {
            StepKind::When => run.when(step, body)?,
            StepKind::Then => run.then(step, body)?,
            StepKind::Given => run.late_given(step, body)?,
        }
    }
    if let Some((reason, span)) = run.refusal {
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

fn literal_text(lit: &Literal) -> String {
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

fn faces_text(faces: &[Option<Face>]) -> String {
    if faces.is_empty() {
        return "nothing".into();
    }
    faces
        .iter()
        .map(|f| f.map_or("_".to_string(), |f| f.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Run<'_> {
    fn seat(&self, name: &Name) -> Seat {
        self.game.state.seat_of(&name.node).unwrap_or(Seat(0))
    }

    fn card(&self, step: &Step, face: Face) -> Result<CardIdx, Failure> {
        self.game
            .state
            .card_with_face(face)
            .ok_or_else(|| Failure::at(step, format!("there is no {face} in this game's deck")))
    }

    fn value_text(&self, v: &Value) -> String {
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

    // ------------------------------------------------------------ Givens that place cards

    fn pin(&mut self, step: &Step, face: Face) -> Result<(), Failure> {
        if !self.pinned.insert(face) {
            return Err(Failure::at(
                step,
                format!("{face} is placed twice: each card exists once"),
            ));
        }
        Ok(())
    }

    /// A card object from the bottom of the draw pile that no placement has fixed.
    fn spare_card(&self, step: &Step) -> Result<CardIdx, Failure> {
        let st = &self.game.state;
        let draw = self.game.table.draw_pile.expect("a draw pile is required");
        st.pile(draw)
            .iter()
            .copied()
            .find(|&c| !self.pinned.contains(&st.face(c)))
            .ok_or_else(|| {
                Failure::at(
                    step,
                    "there are not enough cards left in the draw pile to place these",
                )
            })
    }

    fn bury_in_draw_pile(&mut self, card: CardIdx) {
        let table = self.game.table.clone();
        let draw = table.draw_pile.expect("a draw pile is required");
        self.game.state.move_under_pile(&table, card, draw);
        self.game.state.cards[card.0 as usize].known_by = 0;
    }

    fn place(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        let table = self.game.table.clone();
        match body {
            StepBody::Holds { player, cards } => {
                let seat = self.seat(player);
                let want = cards.len();
                // Fit the hand to the listed slots, then give each slot its face.
                let hand: Vec<Option<CardIdx>> = self.game.state.hand(seat).to_vec();
                for (slot, card) in hand.iter().enumerate() {
                    if let Some(card) = card
                        && (slot >= want || cards[slot].node == SlotPattern::Empty)
                    {
                        self.bury_in_draw_pile(*card);
                    }
                }
                for (slot, pattern) in cards.iter().enumerate() {
                    match pattern.node {
                        SlotPattern::Empty => {}
                        SlotPattern::Any => {
                            return Err(Failure::at(step, "`?` can only be used in Then steps"));
                        }
                        SlotPattern::Card(face) => {
                            self.pin(step, face)?;
                            let card = match self.game.state.hand(seat).get(slot).copied().flatten()
                            {
                                Some(c) => c,
                                None => {
                                    let c = self.spare_card(step)?;
                                    self.game
                                        .state
                                        .move_to_slot(c, seat, slot)
                                        .map_err(|e| Failure::at(step, e.to_string()))?;
                                    c
                                }
                            };
                            self.game.state.assign_face(card, face);
                        }
                    }
                }
                self.game.state.trim_hand(seat);
                let hand = &mut self.game.state.hands[seat.index()];
                if hand.len() < want {
                    hand.resize(want, None);
                }
            }
            StepBody::DiscardPileIs(faces) => {
                let discard = table.discard_pile.ok_or_else(|| {
                    Failure::at(step, format!("{} has no discard pile", table.variant))
                })?;
                while self.game.state.pile(discard).len() > faces.len() {
                    let bottom = self.game.state.pile(discard)[0];
                    self.bury_in_draw_pile(bottom);
                }
                while self.game.state.pile(discard).len() < faces.len() {
                    let c = self.spare_card(step)?;
                    self.game.state.move_under_pile(&table, c, discard);
                }
                for (i, face) in faces.iter().enumerate() {
                    self.pin(step, face.node)?;
                    let pile = self.game.state.pile(discard);
                    let card = pile[pile.len() - 1 - i];
                    self.game.state.assign_face(card, face.node);
                }
            }
            StepBody::DrawPileHas(n) => {
                let draw = table.draw_pile.expect("a draw pile is required");
                let n = *n as usize;
                let discard = table.discard_pile;
                while self.game.state.pile(draw).len() > n {
                    let Some(discard) = discard else {
                        return Err(Failure::at(
                            step,
                            "surplus cards go under the discard pile, but this variant has none",
                        ));
                    };
                    // Keep the top n; the bottom cards go under the discard pile.
                    let bottom = self.game.state.pile(draw)[0];
                    self.game.state.move_under_pile(&table, bottom, discard);
                }
                if self.game.state.pile(draw).len() < n {
                    return Err(Failure::at(
                        step,
                        format!(
                            "only {} cards are left for the draw pile",
                            self.game.state.pile(draw).len()
                        ),
                    ));
                }
            }
            StepBody::DrawPileIs(faces) => {
                let draw = table.draw_pile.expect("a draw pile is required");
                if self.game.state.pile(draw).len() < faces.len() {
                    return Err(Failure::at(
                        step,
                        format!(
                            "the draw pile holds only {} cards",
                            self.game.state.pile(draw).len()
                        ),
                    ));
                }
                for (i, face) in faces.iter().enumerate() {
                    self.pin(step, face.node)?;
                    let pile = self.game.state.pile(draw);
                    let card = pile[pile.len() - 1 - i];
                    self.game.state.assign_face(card, face.node);
                }
            }
            StepBody::Knows { player, target } => {
                let seat = self.seat(player);
                let card = self.target(step, target)?;
                self.game.state.reveal_to(card, seat);
            }
            _ => {}
        }
        Ok(())
    }

    fn target(&self, step: &Step, target: &KnowTarget) -> Result<CardIdx, Failure> {
        match target {
            KnowTarget::Card(face) => self.card(step, *face),
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

    fn action(&self, step: &Step, player: &Name, call: &ActionCall) -> Result<Action, Failure> {
        let seat = self.seat(player);
        let args = call
            .args
            .iter()
            .map(|a| {
                Ok(match &a.node {
                    ArgExpr::Word(w) => Arg::Word(w.clone()),
                    ArgExpr::Number(n) => match n.parse::<i64>() {
                        Ok(i) => Arg::Int(i),
                        Err(_) => Arg::Float(n.parse().unwrap_or(0.0)),
                    },
                    ArgExpr::Card(face) => Arg::Card(self.card(step, *face)?),
                    ArgExpr::Slot { owner, slot } => Arg::Slot {
                        seat: owner.as_ref().map_or(seat, |o| self.seat(o)),
                        slot: *slot,
                    },
                    ArgExpr::Drawn => Arg::Drawn,
                })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        Ok(Action {
            seat,
            name: call.name.node.as_str().into(),
            args,
        })
    }

    fn seat_bot(
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

    /// `<player>'s bot chose …` / `… waited`: compare with the last `bot acts`, cards by identity
    /// (a slot names the card that was in it when the bot chose).
    fn bot_chose(
        &self,
        step: &Step,
        player: &Name,
        expected: Option<&ActionCall>,
    ) -> Result<(), Failure> {
        let seat = self.seat(player);
        let Some((who, chosen, before)) = &self.bot_choice else {
            return Err(Failure::at(
                step,
                format!(
                    "no bot has acted yet: write `When {}'s bot acts` first",
                    player.node
                ),
            ));
        };
        if *who != seat {
            return Err(Failure::at(
                step,
                format!(
                    "the last bot to act was {}'s, not {}'s",
                    before.state.players[who.index()],
                    player.node
                ),
            ));
        }
        let found = chosen
            .as_ref()
            .map_or("to wait".to_string(), |a| describe_action(before, a));
        let expected = match expected {
            None => None,
            Some(call) => Some(self.action(step, player, call)?),
        };
        let same = match (&expected, chosen) {
            (None, None) => true,
            (Some(e), Some(c)) => {
                let key = |a: &Action| -> Vec<Result<CardIdx, Arg>> {
                    a.args
                        .iter()
                        .map(|arg| arg_card(before, a.seat, arg))
                        .collect()
                };
                e.name == c.name && key(e) == key(c)
            }
            _ => false,
        };
        if !same {
            let wanted = expected
                .as_ref()
                .map_or("to wait".to_string(), |a| describe_action(before, a));
            return Err(Failure::mismatch(
                step,
                format!("{}'s bot chose {wanted}", player.node),
                format!("it chose {found}"),
            ));
        }
        Ok(())
    }

    fn late_given(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        match body {
            StepBody::BotSeat { player, level } => self.seat_bot(step, player, level),
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

    fn when(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
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

    // ------------------------------------------------------------ Thens

    fn then(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        let st = &self.game.state;
        let table = self.game.table.clone();
        match body {
            StepBody::Rejected { reason } => {
                let Some((actual, _)) = self.refusal.take() else {
                    return Err(Failure::mismatch(
                        step,
                        "the last action to be rejected",
                        if self.last_accepted {
                            "it was accepted"
                        } else {
                            "there was no action"
                        },
                    ));
                };
                if let Some(reason) = reason
                    && !actual.to_lowercase().contains(&reason.node.to_lowercase())
                {
                    return Err(Failure::mismatch(
                        step,
                        format!("rejected with \"{}\"", reason.node),
                        format!("rejected with \"{actual}\""),
                    ));
                }
            }
            StepBody::Holds { player, cards } => {
                let seat = self.seat(player);
                let mut hand: Vec<Option<Face>> = st
                    .hand(seat)
                    .iter()
                    .map(|c| c.map(|c| st.face(c)))
                    .collect();
                while hand.last() == Some(&None) {
                    hand.pop();
                }
                let mut want: Vec<SlotPattern> = cards.iter().map(|c| c.node).collect();
                while want.last() == Some(&SlotPattern::Empty) {
                    want.pop();
                }
                let ok = hand.len() == want.len()
                    && hand.iter().zip(&want).all(|(h, w)| match w {
                        SlotPattern::Any => h.is_some(),
                        SlotPattern::Empty => h.is_none(),
                        SlotPattern::Card(f) => *h == Some(*f),
                    });
                if !ok {
                    let expected = want
                        .iter()
                        .map(|w| match w {
                            SlotPattern::Any => "?".into(),
                            SlotPattern::Empty => "_".into(),
                            SlotPattern::Card(f) => f.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(Failure::mismatch(
                        step,
                        format!("{} holds {expected}", player.node),
                        format!("{} holds {}", player.node, faces_text(&hand)),
                    ));
                }
            }
            StepBody::HoldsCount { player, count } => {
                let n = st.hand(self.seat(player)).iter().flatten().count();
                if n != *count as usize {
                    return Err(Failure::mismatch(
                        step,
                        format!("{count} cards"),
                        format!("{n} cards"),
                    ));
                }
            }
            StepBody::SlotIs { player, slot, card } => {
                let found = st
                    .hand(self.seat(player))
                    .get(*slot as usize)
                    .copied()
                    .flatten()
                    .map(|c| st.face(c));
                if found != *card {
                    let text = |f: Option<Face>| f.map_or("empty".to_string(), |f| f.to_string());
                    return Err(Failure::mismatch(step, text(*card), text(found)));
                }
            }
            StepBody::DrawPileIs(faces) | StepBody::DiscardPileIs(faces) => {
                let is_draw = matches!(body, StepBody::DrawPileIs(_));
                let pile = if is_draw {
                    table.draw_pile
                } else {
                    table.discard_pile
                };
                let pile =
                    pile.ok_or_else(|| Failure::at(step, "this variant has no such pile"))?;
                let actual: Vec<Option<Face>> = st
                    .pile(pile)
                    .iter()
                    .rev()
                    .map(|&c| Some(st.face(c)))
                    .collect();
                let want: Vec<Option<Face>> = faces.iter().map(|f| Some(f.node)).collect();
                // The draw pile is compared from the top as far as listed; the discard pile whole.
                let ok = if is_draw {
                    actual.starts_with(&want)
                } else {
                    actual == want
                };
                if !ok {
                    let shown = if is_draw {
                        &actual[..actual.len().min(want.len().max(1))]
                    } else {
                        &actual[..]
                    };
                    return Err(Failure::mismatch(
                        step,
                        faces_text(&want),
                        faces_text(shown),
                    ));
                }
            }
            StepBody::DrawPileHas(n) => {
                let len = st.pile(table.draw_pile.expect("draw pile")).len();
                if len != *n as usize {
                    return Err(Failure::mismatch(
                        step,
                        format!("{n} cards"),
                        format!("{len} cards"),
                    ));
                }
            }
            StepBody::DrawPileTop(face) | StepBody::DiscardPileTop(face) => {
                let pile = if matches!(body, StepBody::DrawPileTop(_)) {
                    table.draw_pile
                } else {
                    table.discard_pile
                };
                let pile =
                    pile.ok_or_else(|| Failure::at(step, "this variant has no such pile"))?;
                let top = st.pile(pile).last().map(|&c| st.face(c));
                if top != Some(*face) {
                    return Err(Failure::mismatch(
                        step,
                        face.to_string(),
                        top.map_or("an empty pile".into(), |f| f.to_string()),
                    ));
                }
            }
            StepBody::Turn(player) => {
                let current = st.current.map(|s| st.players[s.index()].clone());
                if current.as_deref() != Some(player.node.as_str()) || self.game.is_over() {
                    let found = if self.game.is_over() {
                        "the game is over".to_string()
                    } else {
                        current.map_or("nobody's turn".into(), |c| format!("{c}'s turn"))
                    };
                    return Err(Failure::mismatch(
                        step,
                        format!("{}'s turn", player.node),
                        found,
                    ));
                }
            }
            StepBody::PhaseIs(phase) => {
                let actual = table.phase_name(st.phase);
                if actual != phase.node {
                    return Err(Failure::mismatch(
                        step,
                        phase.node.clone(),
                        actual.to_string(),
                    ));
                }
            }
            StepBody::Knows { player, target } | StepBody::DoesNotKnow { player, target } => {
                let seat = self.seat(player);
                let card = self.target(step, target)?;
                let positive = matches!(body, StepBody::Knows { .. });
                let face = st.face(card);
                if positive && !st.knows(seat, card) {
                    return Err(Failure::mismatch(
                        step,
                        format!("{} knows {face}", player.node),
                        format!("{} does not know it", player.node),
                    ));
                }
                if !positive {
                    if st.knows(seat, card) {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} does not know {face}", player.node),
                            format!("{} knows it", player.node),
                        ));
                    }
                    if self.game.ever_saw(seat, card) {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} was never shown {face}", player.node),
                            format!("an event delivered to {} showed it", player.node),
                        ));
                    }
                }
            }
            StepBody::ScoreIs { player, score } => {
                let seat = self.seat(player);
                let mut trial = self.game.trial();
                let actual = self
                    .rules
                    .score(&mut trial, seat)
                    .map_err(|e| Failure::rule(step, self.rules, "scoring failed", &e))?;
                if actual.to_string() != score.node && (actual as f64).to_string() != score.node {
                    return Err(Failure::mismatch(
                        step,
                        score.node.clone(),
                        actual.to_string(),
                    ));
                }
            }
            StepBody::Win(players) => {
                let Some(outcome) = &st.outcome else {
                    return Err(Failure::mismatch(
                        step,
                        "the game to be over",
                        "the game is not over",
                    ));
                };
                let mut want: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
                let mut got: Vec<&str> = outcome
                    .winners
                    .iter()
                    .map(|s| st.players[s.index()].as_str())
                    .collect();
                want.sort();
                got.sort();
                if want != got {
                    let found = if got.is_empty() {
                        "a draw".into()
                    } else {
                        format!("winners: {}", got.join(", "))
                    };
                    return Err(Failure::mismatch(
                        step,
                        format!("winners: {}", want.join(", ")),
                        found,
                    ));
                }
            }
            StepBody::Draw => match &st.outcome {
                Some(o) if o.winners.is_empty() => {}
                Some(o) => {
                    let got: Vec<&str> = o
                        .winners
                        .iter()
                        .map(|s| st.players[s.index()].as_str())
                        .collect();
                    return Err(Failure::mismatch(
                        step,
                        "a draw",
                        format!("winners: {}", got.join(", ")),
                    ));
                }
                None => {
                    return Err(Failure::mismatch(
                        step,
                        "the game to be over (a draw)",
                        "the game is not over",
                    ));
                }
            },
            StepBody::Over | StepBody::NotOver => {
                let want = matches!(body, StepBody::Over);
                if self.game.is_over() != want {
                    let text = |over: bool| {
                        if over {
                            "the game is over"
                        } else {
                            "the game is not over"
                        }
                    };
                    return Err(Failure::mismatch(step, text(want), text(!want)));
                }
            }
            StepBody::Property {
                player,
                name,
                value,
            } => {
                let key = name.node.replace(' ', "_");
                let actual = match player {
                    Some(p) => table
                        .player_var(&key)
                        .map(|i| &st.player_vars[self.seat(p).index()][i]),
                    None => table.game_var(&key).map(|i| &st.game_vars[i]),
                };
                let Some(actual) = actual else {
                    return Err(Failure::at(
                        step,
                        format!("`{}` is not a property of {}", name.node, table.variant),
                    ));
                };
                let found = self.value_text(actual);
                let expected = literal_text(&value.node);
                let same = found == expected
                    || (matches!(actual, Value::Unit)
                        && ["none", "null", "nobody", "()"].contains(&expected.as_str()));
                if !same {
                    return Err(Failure::mismatch(step, expected, found));
                }
            }
            StepBody::Sees {
                audience,
                event,
                fields,
                times,
            } => self.sees(step, audience, event, fields, *times)?,
            StepBody::Receives { player } => {
                let doc = step.doc.as_ref().ok_or_else(|| {
                    Failure::at(step, "`receives:` needs a doc string with a JSON object")
                })?;
                let expected = self.fill_card_ids(&doc.content);
                let expected: Json = serde_json::from_str(&expected)
                    .map_err(|e| Failure::at(step, format!("the doc string is not JSON: {e}")))?;
                let seat = self.seat(player);
                let events = self.game.rendered_events(seat, self.marker);
                if !events.iter().any(|e| subset(&expected, e)) {
                    let got: Vec<String> = events.iter().map(|e| e.to_string()).collect();
                    return Err(Failure::mismatch(
                        step,
                        format!("an event containing {expected}"),
                        if got.is_empty() {
                            format!("no events for {}", player.node)
                        } else {
                            got.join("\n")
                        },
                    ));
                }
            }
            StepBody::BotChose { player, action } => {
                self.bot_chose(step, player, action.as_ref())?
            }
            StepBody::NewGame { .. }
            | StepBody::Seed(_)
            | StepBody::HouseRule { .. }
            | StepBody::HouseRules(_)
            | StepBody::Did { .. }
            | StepBody::Does { .. }
            | StepBody::BotSeat { .. }
            | StepBody::BotActs { .. }
            | StepBody::TimePasses { .. }
            | StepBody::TimeRunsOut => {
                return Err(Failure::at(step, "this step is not a Then step"));
            }
        }
        Ok(())
    }

    /// Replace `"{7S}"` in a JSON text by that card's public id.
    fn fill_card_ids(&self, text: &str) -> String {
        let mut out = text.to_string();
        for card in &self.game.state.cards {
            let key = format!("\"{{{}}}\"", card.face);
            if out.contains(&key) {
                out = out.replace(
                    &key,
                    &format!(
                        "\"{}\"",
                        crate::kernel::event::public_id_text(card.public_id)
                    ),
                );
            }
        }
        out
    }

    fn sees(
        &self,
        step: &Step,
        audience: &Audience,
        event: &Spanned<String>,
        fields: &[FieldMatch],
        times: Option<u32>,
    ) -> Result<(), Failure> {
        let st = &self.game.state;
        let count_for = |seat: Seat| -> usize {
            self.game
                .events_for(seat, self.marker)
                .filter(|e| *e.name == *event.node)
                .filter(|e| {
                    let rendered = e.render(st, &self.game.table, seat);
                    fields
                        .iter()
                        .all(|f| self.field_matches(&e.payload, &rendered, f))
                })
                .count()
        };
        let described = || {
            let mut d = event.node.clone();
            for (i, f) in fields.iter().enumerate() {
                d.push_str(if i == 0 { " with " } else { " and " });
                d.push_str(&format!("{} {}", f.path.node, literal_text(&f.value.node)));
            }
            d
        };
        let want = |n: usize| match times {
            Some(t) => n == t as usize,
            None => n >= 1,
        };
        let times_text = times.map_or("at least once".to_string(), |t| format!("{t} times"));
        let seats: Vec<Seat> = (0..st.player_count()).map(|i| Seat(i as u8)).collect();
        let counts: Vec<(String, usize)> = seats
            .iter()
            .map(|&s| (st.players[s.index()].clone(), count_for(s)))
            .collect();
        let summary = || {
            let mut text = counts
                .iter()
                .map(|(p, n)| format!("{p} saw it {n} times"))
                .collect::<Vec<_>>()
                .join(", ");
            let names: Vec<String> = self
                .game
                .events_since(self.marker)
                .iter()
                .map(|e| e.name.to_string())
                .collect();
            text.push_str(&format!(
                "; events since the last When: {}",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            ));
            text
        };
        let ok = match audience {
            Audience::Everyone => counts.iter().all(|(_, n)| want(*n)),
            Audience::Only(p) => counts
                .iter()
                .all(|(name, n)| if *name == p.node { want(*n) } else { *n == 0 }),
            Audience::Player(p) => counts.iter().any(|(name, n)| *name == p.node && want(*n)),
            Audience::NotPlayer(p) => counts.iter().any(|(name, n)| *name == p.node && *n == 0),
        };
        if !ok {
            let expected = match audience {
                Audience::Everyone => format!("every player sees {} {times_text}", described()),
                Audience::Only(p) => format!("only {} sees {} {times_text}", p.node, described()),
                Audience::Player(p) => format!("{} sees {} {times_text}", p.node, described()),
                Audience::NotPlayer(p) => format!("{} does not see {}", p.node, described()),
            };
            return Err(Failure::mismatch(step, expected, summary()));
        }
        Ok(())
    }

    /// Whether one `with <path> <value>` holds for an event as one recipient sees it.
    fn field_matches(&self, payload: &Payload, rendered: &Json, field: &FieldMatch) -> bool {
        let st = &self.game.state;
        // Cards and players match by identity, whatever the recipient may see of them.
        if let Some(node) = payload.get_path(&field.path.node) {
            match (node, &field.value.node) {
                (Payload::Card(c), Literal::Card(face)) => return st.face(c.card) == *face,
                (Payload::Player(s), Literal::Word(w)) => return st.players[s.index()] == *w,
                _ => {}
            }
        }
        let mut json = rendered;
        for key in field.path.node.split('.') {
            json = match json {
                Json::Object(map) => match map.get(key) {
                    Some(v) => v,
                    None => return false,
                },
                Json::Array(items) => match key.parse::<usize>().ok().and_then(|i| items.get(i)) {
                    Some(v) => v,
                    None => return false,
                },
                _ => return false,
            };
        }
        match (&field.value.node, json) {
            (Literal::Bool(b), Json::Bool(j)) => b == j,
            (Literal::Number(n), Json::Number(j)) => n.parse::<f64>().ok() == j.as_f64(),
            (Literal::Word(w) | Literal::Text(w), Json::String(s)) => w == s,
            (Literal::Word(w), Json::Object(map)) => {
                map.get("id").and_then(Json::as_str) == Some(w)
            }
            (Literal::Card(f), Json::String(s)) => f.to_string() == *s,
            (Literal::Number(n), Json::String(s)) => n == s,
            (Literal::Word(w), Json::Null) => w == "null" || w == "none",
            _ => false,
        }
    }
}

/// `expected` is contained in `actual`: objects by key, arrays element by element, numbers by value.
pub fn subset(expected: &Json, actual: &Json) -> bool {
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| subset(v, av))),
        (Json::Array(e), Json::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset(x, y))
        }
        (Json::Number(e), Json::Number(a)) => e.as_f64() == a.as_f64(),
        (e, a) => e == a,
    }
}

/// Where a card is, as a short text (for failure messages).
pub fn describe_loc(game: &Game, card: CardIdx) -> String {
    match game.state.cards[card.0 as usize].loc {
        Loc::Hand { seat, slot } => format!("{}'s slot {slot}", game.state.players[seat.index()]),
        Loc::Pile(p) => game.table.piles[p.0 as usize].name.clone(),
    }
}

/// The card an argument of `actor` names in `game` (a slot names the card in it, and a bare
/// number the actor's own slot, as the rule scripts read it), or the argument itself.
fn arg_card(game: &Game, actor: Seat, arg: &Arg) -> Result<CardIdx, Arg> {
    match arg {
        Arg::Card(c) => Ok(*c),
        Arg::Int(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| game.state.hand(actor).get(i).copied().flatten())
            .ok_or_else(|| arg.clone()),
        Arg::Slot { seat, slot } => game
            .state
            .hand(*seat)
            .get(*slot as usize)
            .copied()
            .flatten()
            .ok_or_else(|| arg.clone()),
        other => Err(other.clone()),
    }
}

/// An action as a scenario would write it, each card with where it was: `jack_swap bob's slot 1
/// (7S) and ann's slot 0 (KH)`.
pub fn describe_action(game: &Game, action: &Action) -> String {
    let args: Vec<String> = action
        .args
        .iter()
        .map(|arg| match (arg, arg_card(game, action.seat, arg)) {
            (Arg::Slot { .. }, Ok(card)) | (Arg::Card(_), Ok(card)) => {
                format!("{} ({})", describe_loc(game, card), game.state.face(card))
            }
            (Arg::Slot { seat, slot }, Err(_)) => {
                format!("{}'s slot {slot} (empty)", game.state.players[seat.index()])
            }
            (Arg::Word(w), _) => w.clone(),
            (Arg::Int(i), _) => i.to_string(),
            (Arg::Float(f), _) => f.to_string(),
            (Arg::Drawn, _) => "drawn".into(),
            (Arg::Card(_), Err(_)) => unreachable!("a card argument always names a card"),
        })
        .collect();
    if args.is_empty() {
        action.name.to_string()
    } else {
        format!("{} {}", action.name, args.join(" and "))
    }
}
