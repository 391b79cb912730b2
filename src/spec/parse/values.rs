//! Step bodies: the pairs of one parsed step turned into a typed `StepBody`, with a problem (and a
//! hint) for every value that is not what it looks like (`1S` is not a card).

use super::grammar::Rule;
use super::step::HOUSE_VALUE_HELP;
use crate::kernel::Face;
use crate::spec::ast::{
    ActionCall, ArgExpr, Audience, FieldMatch, KnowTarget, Literal, Name, SlotPattern, Span,
    Spanned, StepBody,
};
use crate::spec::diag::Problem;
use crate::spec::limits::{MAX_COUNT, MAX_LIST_ITEMS, MAX_STEP_MILLIS};
use pest::iterators::Pair;

/// Turns the pairs of one parsed step into a `StepBody`, collecting value problems.
pub(super) struct StepCx {
    pub(super) offset: usize,
    pub(super) problems: Vec<Problem>,
}

/// The pairs inside `pair` that carry meaning (punctuation and the end are left out).
fn kids(pair: Pair<'_, Rule>) -> Vec<Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|p| {
            !matches!(
                p.as_rule(),
                Rule::comma
                    | Rule::colon
                    | Rule::possessive
                    | Rule::open_bracket
                    | Rule::close_bracket
                    | Rule::double_quote
                    | Rule::EOI
            )
        })
        .collect()
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A player's name: a lower-case ASCII letter, then lower-case letters, digits and `_`.
fn is_player_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, "0"));
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

const DURATION_HELP: &str =
    "a step lets from 0.001 to 86400 seconds (one day) pass; for longer, write several steps";

const CARD_HELP: &str = "a card is a rank (A, 2-10, J, Q, K) and a suit (S, H, D, C or ♠♥♦♣), such as `7S` or `10H`; `JK` is a joker";

/// A did-you-mean for something written where a card was expected.
fn card_hint(s: &str) -> String {
    let upper = s.to_uppercase();
    if upper != s && upper.parse::<Face>().is_ok() {
        return format!("did you mean `{upper}`?");
    }
    if upper == "JOKER" {
        return "did you mean `JK`? (a joker is written `JK`)".to_string();
    }
    let mut chars = upper.chars();
    let suit = chars.next_back().filter(|c| "SHDC♠♥♦♣".contains(*c));
    let rank: String = chars.collect();
    if let Some(suit) = suit {
        let named = match rank.as_str() {
            "1" => Some(("A", "an ace is written `A`")),
            "11" => Some(("J", "a jack is written `J`")),
            "12" => Some(("Q", "a queen is written `Q`")),
            "13" => Some(("K", "a king is written `K`")),
            "T" => Some(("10", "a ten is written `10`")),
            _ => None,
        };
        if let Some((rank, why)) = named {
            return format!("did you mean `{rank}{suit}`? ({why})");
        }
    }
    CARD_HELP.to_string()
}

impl StepCx {
    pub(super) fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        Span::new(
            self.offset + pair.as_span().start(),
            self.offset + pair.as_span().end(),
        )
    }

    /// A name as written; a player's name is checked to be lower-case ASCII.
    pub(super) fn name(&mut self, pair: &Pair<'_, Rule>) -> Name {
        let name = Spanned::new(pair.as_str().to_string(), self.span(pair));
        if pair.as_rule() == Rule::player && !is_player_name(&name.node) {
            let lower = name.node.to_lowercase();
            let help = if is_player_name(&lower) {
                format!("did you mean `{lower}`?")
            } else {
                "a player name starts with a lower-case letter, like `ann` or `player_2`".into()
            };
            self.problems.push(
                Problem::new(
                    format!(
                        "player names are lowercase ASCII letters, digits and _: `{}`",
                        name.node
                    ),
                    name.span,
                    "not a player name",
                )
                .with_help(Some(help)),
            );
        }
        name
    }

    pub(super) fn players(&mut self, pair: Pair<'_, Rule>) -> Vec<Name> {
        let players: Vec<Pair<'_, Rule>> = kids(pair)
            .into_iter()
            .filter(|p| p.as_rule() == Rule::player)
            .collect();
        self.bounded(&players, "players");
        players.iter().map(|p| self.name(p)).collect()
    }

    /// A problem when a list has more than `MAX_LIST_ITEMS` items, at the first one too many.
    pub(super) fn bounded(&mut self, items: &[Pair<'_, Rule>], what: &str) -> bool {
        let Some(beyond) = items.get(MAX_LIST_ITEMS) else {
            return true;
        };
        self.problems.push(
            Problem::new(
                format!(
                    "this step lists {} {what}; a step lists at most {MAX_LIST_ITEMS}",
                    items.len()
                ),
                self.span(beyond),
                "one too many",
            )
            .with_help(Some("shorten the list".into())),
        );
        false
    }

    pub(super) fn card_problem(&mut self, text: &str, span: Span) {
        self.problems.push(
            Problem::new(format!("`{text}` is not a card"), span, "not a card")
                .with_help(Some(card_hint(text))),
        );
    }

    pub(super) fn face(&mut self, pair: &Pair<'_, Rule>) -> Option<Face> {
        match pair.as_str().parse::<Face>() {
            Ok(face) => Some(face),
            Err(_) => {
                self.card_problem(pair.as_str(), self.span(pair));
                None
            }
        }
    }

    /// A count, a slot or a number of times: a whole number up to `MAX_COUNT`.
    pub(super) fn count(&mut self, pair: &Pair<'_, Rule>) -> Option<u32> {
        let n = self.number::<u64>(pair)?;
        match u32::try_from(n) {
            Ok(n) if u64::from(n) <= MAX_COUNT => Some(n),
            _ => {
                self.problems.push(
                    Problem::new(
                        format!(
                            "`{}` is too large: a count or slot in a step is at most {MAX_COUNT}",
                            pair.as_str()
                        ),
                        self.span(pair),
                        "too large",
                    )
                    .with_help(Some("write a smaller number".into())),
                );
                None
            }
        }
    }

    pub(super) fn number<T: std::str::FromStr>(&mut self, pair: &Pair<'_, Rule>) -> Option<T> {
        match pair.as_str().parse::<T>() {
            Ok(n) => Some(n),
            Err(_) => {
                self.problems.push(
                    Problem::new(
                        format!("`{}` is too large", pair.as_str()),
                        self.span(pair),
                        "too large",
                    )
                    .with_help(Some("write a smaller number".into())),
                );
                None
            }
        }
    }

    /// A hand pattern: cards, `_` and `?`.
    pub(super) fn slots(&mut self, pair: Pair<'_, Rule>) -> Vec<Spanned<SlotPattern>> {
        let mut out = Vec::new();
        let items = kids(pair);
        if !self.bounded(&items, "slots") {
            return out;
        }
        for item in items {
            let span = self.span(&item);
            let pattern = match item.as_rule() {
                Rule::empty_slot => Some(SlotPattern::Empty),
                Rule::any_card => Some(SlotPattern::Any),
                _ => self.face(&item).map(SlotPattern::Card),
            };
            if let Some(pattern) = pattern {
                out.push(Spanned::new(pattern, span));
            }
        }
        out
    }

    /// The cards of a pile: no `_` and no `?`.
    pub(super) fn pile(&mut self, pair: Pair<'_, Rule>) -> Vec<Spanned<Face>> {
        let mut out = Vec::new();
        let items = kids(pair);
        if !self.bounded(&items, "cards") {
            return out;
        }
        for item in items {
            let span = self.span(&item);
            let what = match item.as_rule() {
                Rule::empty_slot => "`_` (an empty slot)",
                Rule::any_card => "`?` (any card)",
                _ => {
                    if let Some(face) = self.face(&item) {
                        out.push(Spanned::new(face, span));
                    }
                    continue;
                }
            };
            self.problems.push(
                Problem::new(format!("{what} cannot be in a pile"), span, "not a card")
                    .with_help(Some("list the cards of the pile, top first".into())),
            );
        }
        out
    }

    /// A value; in a house rule (`house`) a word is never a card.
    pub(super) fn literal(&mut self, pair: Pair<'_, Rule>, house: bool) -> Option<Literal> {
        let text = pair.as_str();
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::boolean => Some(Literal::Bool(text == "true")),
            Rule::number => Some(Literal::Number(text.to_string())),
            Rule::text => Some(Literal::Text(unquote(pair))),
            Rule::list => {
                let mut items = Vec::new();
                let mut ok = true;
                let kids = kids(pair);
                if !self.bounded(&kids, "values") {
                    return None;
                }
                for item in kids {
                    match self.literal(item, house) {
                        Some(literal) => items.push(literal),
                        None => ok = false,
                    }
                }
                ok.then_some(Literal::List(items))
            }
            _ if is_ident(text) => match text.parse::<Face>() {
                Ok(face) if !house => Some(Literal::Card(face)),
                _ => Some(Literal::Word(text.to_string())),
            },
            _ if house => {
                self.problems.push(
                    Problem::new(
                        format!("`{text}` is not a house-rule value"),
                        span,
                        "not a value",
                    )
                    .with_help(Some(HOUSE_VALUE_HELP.into())),
                );
                None
            }
            _ => match text.parse::<Face>() {
                Ok(face) => Some(Literal::Card(face)),
                Err(_) => {
                    self.card_problem(text, span);
                    None
                }
            },
        }
    }

    pub(super) fn spanned_literal(
        &mut self,
        pair: Pair<'_, Rule>,
        house: bool,
    ) -> Option<Spanned<Literal>> {
        let span = self.span(&pair);
        self.literal(pair, house).map(|l| Spanned::new(l, span))
    }

    pub(super) fn slot_ref(&mut self, pair: Pair<'_, Rule>) -> Option<(Option<Name>, u32)> {
        let mut owner = None;
        let mut slot = None;
        for kid in kids(pair) {
            match kid.as_rule() {
                Rule::player => owner = Some(self.name(&kid)),
                _ => slot = self.count(&kid),
            }
        }
        Some((owner, slot?))
    }

    pub(super) fn know_target(
        &mut self,
        pair: Pair<'_, Rule>,
        subject: &Name,
    ) -> Option<KnowTarget> {
        if pair.as_rule() == Rule::slot_ref {
            let (owner, slot) = self.slot_ref(pair)?;
            Some(KnowTarget::Slot {
                owner: owner.unwrap_or_else(|| subject.clone()),
                slot,
            })
        } else {
            self.face(&pair).map(KnowTarget::Card)
        }
    }

    pub(super) fn action(&mut self, pair: Pair<'_, Rule>) -> Option<ActionCall> {
        let parts = kids(pair);
        if !self.bounded(parts.get(1..).unwrap_or_default(), "arguments") {
            return None;
        }
        let mut parts = parts.into_iter();
        let name = parts.next()?;
        let name = self.name(&name);
        let mut args = Vec::new();
        let mut ok = true;
        for arg in parts {
            let span = self.span(&arg);
            let text = arg.as_str();
            let expr = match arg.as_rule() {
                Rule::drawn => Some(ArgExpr::Drawn),
                Rule::slot_ref => self
                    .slot_ref(arg)
                    .map(|(owner, slot)| ArgExpr::Slot { owner, slot }),
                _ if is_number(text) => Some(ArgExpr::Number(text.to_string())),
                _ => match text.parse::<Face>() {
                    Ok(face) => Some(ArgExpr::Card(face)),
                    Err(_) if is_ident(text) => Some(ArgExpr::Word(text.to_string())),
                    Err(_) if text.starts_with(|c: char| c.is_ascii_digit()) => {
                        self.card_problem(text, span);
                        None
                    }
                    Err(_) => {
                        self.problems.push(
                            Problem::new(format!("`{text}` is not an argument"), span, "not an argument").with_help(
                                Some(
                                    "an argument is a word, a number, a card (`7S`), a slot (`slot 2`, `bob's slot 1`) or `drawn`"
                                        .into(),
                                ),
                            ),
                        );
                        None
                    }
                },
            };
            match expr {
                Some(expr) => args.push(Spanned::new(expr, span)),
                None => ok = false,
            }
        }
        ok.then_some(ActionCall { name, args })
    }

    pub(super) fn millis(&mut self, pair: &Pair<'_, Rule>) -> Option<u64> {
        let text = pair.as_str();
        let span = self.span(pair);
        if text.starts_with('-') {
            self.problems.push(
                Problem::new("time cannot run backwards", span, "negative")
                    .with_help(Some(DURATION_HELP.into())),
            );
            return None;
        }
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let frac = frac.trim_end_matches('0');
        if frac.len() > 3 {
            self.problems.push(
                Problem::new(
                    format!("`{text}` seconds is finer than a millisecond"),
                    span,
                    "too precise",
                )
                .with_help(Some(
                    "the clock counts whole milliseconds: use at most 3 decimals".into(),
                )),
            );
            return None;
        }
        let millis = int
            .parse::<u64>()
            .ok()
            .and_then(|s| s.checked_mul(1000))
            .and_then(|ms| ms.checked_add(format!("{frac:0<3}").parse::<u64>().ok()?));
        let problem = match millis {
            Some(0) => Problem::new(format!("`{text}` seconds is no time at all"), span, "zero"),
            Some(ms) if ms <= MAX_STEP_MILLIS => return Some(ms),
            _ => Problem::new(
                format!(
                    "`{text}` seconds is more than a day ({} seconds)",
                    MAX_STEP_MILLIS / 1000
                ),
                span,
                "too long",
            ),
        };
        self.problems
            .push(problem.with_help(Some(DURATION_HELP.into())));
        None
    }

    /// The audience-independent part of a `sees` step.
    pub(super) fn sees(&mut self, audience: Audience, rest: &[Pair<'_, Rule>]) -> Option<StepBody> {
        let (event, rest) = rest.split_first()?;
        let event = self.name(event);
        let fields: Vec<Pair<'_, Rule>> = rest
            .iter()
            .filter(|p| p.as_rule() == Rule::field_match)
            .cloned()
            .collect();
        if !self.bounded(&fields, "fields") {
            return None;
        }
        let mut fields = Vec::new();
        let mut times = None;
        let mut ok = true;
        for part in rest {
            match part.as_rule() {
                Rule::field_match => {
                    let parts = kids(part.clone());
                    if let [path, value] = parts.as_slice() {
                        match self.spanned_literal(value.clone(), false) {
                            Some(value) => fields.push(FieldMatch {
                                path: self.name(path),
                                value,
                            }),
                            None => ok = false,
                        }
                    }
                }
                Rule::times => {
                    let count = kids(part.clone()).first().and_then(|n| self.count(n));
                    let negative = match audience {
                        Audience::NotPlayer(_) => Some("does not see"),
                        Audience::Nobody => Some("nobody sees"),
                        _ => None,
                    };
                    if let Some(form) = negative {
                        self.problems.push(
                            Problem::new(
                                format!("`{form}` takes no count"),
                                self.span(part),
                                "count",
                            )
                            .with_help(Some(format!(
                                "`{form}` means not even once: remove the count"
                            ))),
                        );
                        ok = false;
                    }
                    times = count;
                    ok &= count.is_some();
                }
                _ => {}
            }
        }
        ok.then_some(StepBody::Sees {
            audience,
            event,
            fields,
            times,
        })
    }

    pub(super) fn body(&mut self, form: Pair<'_, Rule>) -> Option<StepBody> {
        use Rule as R;
        let rule = form.as_rule();
        let parts = kids(form);
        let body = match (rule, parts.as_slice()) {
            (R::new_game, [variant, players]) => StepBody::NewGame {
                variant: self.name(variant),
                players: self.players(players.clone()),
            },
            (R::seed, [n]) => StepBody::Seed(self.number(n)?),
            (R::house_rule, [name, value]) => StepBody::HouseRule {
                name: self.name(name),
                value: self.spanned_literal(value.clone(), true)?,
            },
            (R::house_rules, []) => StepBody::HouseRules(Vec::new()),
            (R::time_passes, [n]) => StepBody::TimePasses {
                millis: self.millis(n)?,
            },
            (R::time_runs_out, []) => StepBody::TimeRunsOut,
            (R::phase_is, [phase]) => StepBody::PhaseIs(self.name(phase)),
            (R::rejected, []) => StepBody::Rejected { reason: None },
            (R::rejected, [text]) => StepBody::Rejected {
                reason: Some(Spanned::new(unquote(text.clone()), self.span(text))),
            },
            (R::draw_pile_top, [card]) => StepBody::DrawPileTop(self.face(card)?),
            (R::draw_pile_has, [n]) => StepBody::DrawPileHas(self.count(n)?),
            (R::draw_pile_is, [cards]) => StepBody::DrawPileIs(self.pile(cards.clone())),
            (R::deck_is, [cards]) => StepBody::DeckIs(self.pile(cards.clone())),
            (R::discard_pile_top, [card]) => StepBody::DiscardPileTop(self.face(card)?),
            (R::discard_pile_is, [cards]) if cards.as_rule() == R::empty => {
                StepBody::DiscardPileIs(Vec::new())
            }
            (R::discard_pile_is, [cards]) => StepBody::DiscardPileIs(self.pile(cards.clone())),
            (R::game_draw, []) => StepBody::Draw,
            (R::game_over, []) => StepBody::Over,
            (R::game_not_over, []) => StepBody::NotOver,
            (R::turn, [player]) => StepBody::Turn(self.name(player)),
            (R::everyone_sees, rest) => self.sees(Audience::Everyone, rest)?,
            (R::nobody_sees, rest) => self.sees(Audience::Nobody, rest)?,
            (R::setup_rejected, []) => StepBody::SetupRejected { reason: None },
            (R::setup_rejected, [text]) => StepBody::SetupRejected {
                reason: Some(Spanned::new(unquote(text.clone()), self.span(text))),
            },
            (R::discard_pile_has, [n]) => StepBody::DiscardPileHas(self.count(n)?),
            (R::sees_in_order, [player, rest @ ..]) => {
                let events: Vec<_> = rest
                    .iter()
                    .filter(|p| p.as_rule() == R::event)
                    .cloned()
                    .collect();
                if !self.bounded(&events, "events") {
                    return None;
                }
                StepBody::SeesInOrder {
                    player: self.name(player),
                    events: events.iter().map(|e| self.name(e)).collect(),
                }
            }
            (R::may_do, [player, rest @ ..]) => {
                let player = self.name(player);
                let allowed = !rest.iter().any(|p| p.as_rule() == R::may_not);
                let action = rest.iter().find(|p| p.as_rule() == R::action)?;
                StepBody::MayDo {
                    player,
                    action: self.action(action.clone())?,
                    allowed,
                }
            }
            (R::only_sees, [player, rest @ ..]) => {
                let player = self.name(player);
                self.sees(Audience::Only(player), rest)?
            }
            (R::sees, [player, rest @ ..]) => {
                let player = self.name(player);
                self.sees(Audience::Player(player), rest)?
            }
            (R::does_not_see, [player, rest @ ..]) => {
                let player = self.name(player);
                self.sees(Audience::NotPlayer(player), rest)?
            }
            (R::slot_is, [player, slot, card]) => StepBody::SlotIs {
                player: self.name(player),
                slot: self.count(slot)?,
                card: if card.as_rule() == R::empty {
                    None
                } else {
                    Some(self.face(card)?)
                },
            },
            (R::score_is, [player, score]) => StepBody::ScoreIs {
                player: self.name(player),
                score: self.name(score),
            },
            (R::player_property, [player, name, value]) => StepBody::Property {
                player: Some(self.name(player)),
                name: self.property_name(name),
                value: self.spanned_literal(value.clone(), false)?,
            },
            (R::property, [name, value]) => StepBody::Property {
                player: None,
                name: self.property_name(name),
                value: self.spanned_literal(value.clone(), false)?,
            },
            (R::everyone_knows, [target]) => {
                if target.as_rule() == R::slot_ref
                    && !kids(target.clone())
                        .iter()
                        .any(|k| k.as_rule() == R::player)
                {
                    self.problems.push(
                        Problem::new(
                            "whose slot? `everyone` has no slots of its own",
                            self.span(target),
                            "slot",
                        )
                        .with_help(Some("name the owner: `everyone knows ann's slot 1`".into())),
                    );
                    return None;
                }
                // The owner is always written, so the subject is never used.
                let nobody = Spanned::new(String::new(), self.span(target));
                StepBody::EveryoneKnows(self.know_target(target.clone(), &nobody)?)
            }
            (R::face_state, [player, slots, side]) => {
                let player = self.name(player);
                let mut numbers = Vec::new();
                for n in kids(slots.clone()) {
                    numbers.push(Spanned::new(self.count(&n)?, self.span(&n)));
                }
                StepBody::FaceState {
                    player,
                    slots: numbers,
                    up: side.as_str() == "up",
                }
            }
            (R::does_not_know, [player, target]) => {
                let player = self.name(player);
                let target = self.know_target(target.clone(), &player)?;
                StepBody::DoesNotKnow { player, target }
            }
            (R::knows, [player, target]) => {
                let player = self.name(player);
                let target = self.know_target(target.clone(), &player)?;
                StepBody::Knows { player, target }
            }
            (R::receives, [player]) => StepBody::Receives {
                player: self.name(player),
            },
            (R::holds_count, [player, n]) => StepBody::HoldsCount {
                player: self.name(player),
                count: self.count(n)?,
            },
            (R::holds, [player, cards]) => StepBody::Holds {
                player: self.name(player),
                cards: self.slots(cards.clone()),
            },
            (R::did, [player, action]) => StepBody::Did {
                player: self.name(player),
                action: self.action(action.clone())?,
            },
            (R::does, [player, action]) => StepBody::Does {
                player: self.name(player),
                action: self.action(action.clone())?,
            },
            (R::win, [players]) => StepBody::Win(self.players(players.clone())),
            (R::bot_seat, [player, level]) => StepBody::BotSeat {
                player: self.name(player),
                level: self.name(level),
            },
            (R::bot_acts, [player]) => StepBody::BotActs {
                player: self.name(player),
            },
            (R::bot_chose, [player, action]) => StepBody::BotChose {
                player: self.name(player),
                action: Some(self.action(action.clone())?),
            },
            (R::bot_waited, [player]) => StepBody::BotChose {
                player: self.name(player),
                action: None,
            },
            _ => return None,
        };
        Some(body)
    }

    /// A property name with its words separated by single spaces.
    pub(super) fn property_name(&self, pair: &Pair<'_, Rule>) -> Spanned<String> {
        let words: Vec<&str> = pair.as_str().split_whitespace().collect();
        Spanned::new(words.join(" "), self.span(pair))
    }
}

/// The text of a quoted `text` pair, without quotes and escapes.
fn unquote(pair: Pair<'_, Rule>) -> String {
    let raw = kids(pair)
        .into_iter()
        .find(|p| p.as_rule() == Rule::text_content)
        .map_or("", |p| p.as_str());
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('"' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}
