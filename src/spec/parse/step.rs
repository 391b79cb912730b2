//! One step: parse its text with the `step` rule, check that its keyword fits its form, and check
//! its table (`the house rules:`) or doc string (`receives:`, a JSON object).

use super::grammar::{Rule, ScenarioParser};
use super::suggest::closest_template;
use super::values::StepCx;
use super::{error_pos, keyword_word, kind_word};
use crate::spec::ast::{
    DocString, Literal, SlotPattern, Span, Spanned, StepBody, StepKeyword, StepKind, Table,
};
use crate::spec::diag::Problem;
use crate::spec::limits::MAX_NESTING;
use pest::Parser as _;

/// The table and doc string of a step, when the caller has them.
#[derive(Clone, Copy)]
pub(super) struct Attachments<'a> {
    pub(super) table: Option<&'a Table>,
    pub(super) doc: Option<&'a DocString>,
    /// Content offset to file offset for each content line of `doc`, when known.
    pub(super) doc_map: Option<&'a [(usize, usize)]>,
    /// Whether to check the JSON of a `receives:` doc string (not in an outline template).
    pub(super) check_json: bool,
}

/// One step to check.
pub(super) struct StepInput<'a> {
    pub(super) text: &'a str,
    pub(super) offset: usize,
    /// `None` when it could not be resolved (an `And` as first step): no kind check then.
    pub(super) kind: Option<StepKind>,
    /// The keyword as written and its span, for messages about the kind.
    pub(super) keyword: Option<(StepKeyword, Span)>,
    pub(super) attachments: Option<Attachments<'a>>,
}

impl<'a> StepInput<'a> {
    /// The same step with another text and doc string (an outline step after substitution).
    pub(super) fn with<'b>(
        &self,
        text: &'b str,
        doc: Option<&'b DocString>,
        check_json: bool,
    ) -> StepInput<'b>
    where
        'a: 'b,
    {
        StepInput {
            text,
            offset: self.offset,
            kind: self.kind,
            keyword: self.keyword,
            attachments: self.attachments.map(|a| Attachments {
                doc,
                check_json: a.check_json && check_json,
                ..a
            }),
        }
    }
}

/// Where a `[` opens a list nested deeper than `MAX_NESTING` in `text` (quoted text is skipped):
/// the grammar reads lists recursively, so deeper input is refused before it is parsed.
pub(super) fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for (at, b) in text.bytes().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if quoted => escaped = true,
            b'"' => quoted = !quoted,
            b'[' if !quoted => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(at);
                }
            }
            b']' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn nesting_problem(at: usize) -> Problem {
    Problem::new(
        format!("lists nest at most {MAX_NESTING} deep"),
        Span::new(at, at + 1),
        "too deep",
    )
    .with_help(Some("write a flatter list".into()))
}

/// Parse a step's text, then check its kind and its table or doc string.
pub(super) fn check_step(input: &StepInput<'_>) -> Result<StepBody, Vec<Problem>> {
    let text = input.text.trim_end();
    let text_span = Span::new(input.offset, input.offset + text.len());
    if text.trim_start().is_empty() {
        let span = input.keyword.map_or(text_span, |(_, span)| span);
        return Err(vec![Problem::new("empty step", span, "nothing after the keyword").with_help(Some(
            "write what the step says after the keyword, such as `Given a cambia game with players ann, bob`".into(),
        ))]);
    }
    if let Some(at) = too_deep(text) {
        return Err(vec![nesting_problem(input.offset + at)]);
    }
    let form = match ScenarioParser::parse(Rule::step, text) {
        Ok(mut pairs) => pairs
            .next()
            .and_then(|step| step.into_inner().find(|p| p.as_rule() != Rule::EOI)),
        Err(e) => return Err(vec![unknown_step(text, input.offset, input.kind, &e)]),
    };
    let mut cx = StepCx {
        offset: input.offset,
        problems: Vec::new(),
    };
    let body = form.and_then(|form| cx.body(form));
    let mut problems = cx.problems;
    let Some(mut body) = body else {
        if problems.is_empty() {
            problems.push(Problem::new("unknown step", text_span, "not understood"));
        }
        return Err(problems);
    };
    problems.extend(check_kind(&body, input, text_span));
    if let Some(attachments) = input.attachments {
        problems.extend(check_attachments(&mut body, attachments, text_span));
    }
    if problems.is_empty() {
        Ok(body)
    } else {
        Err(problems)
    }
}

/// The kinds a step body may be written with.
fn allowed_kinds(body: &StepBody) -> &'static [StepKind] {
    use StepKind::{Given, Then, When};
    match body {
        StepBody::NewGame { .. }
        | StepBody::Seed(_)
        | StepBody::HouseRule { .. }
        | StepBody::HouseRules(_)
        | StepBody::DrawPileIs(_)
        | StepBody::DeckIs(_)
        | StepBody::BotSeat { .. }
        | StepBody::Did { .. } => &[Given],
        StepBody::Holds { .. }
        | StepBody::DrawPileHas(_)
        | StepBody::DiscardPileIs(_)
        | StepBody::Turn(_)
        | StepBody::Knows { .. }
        | StepBody::FaceState { .. }
        | StepBody::Property { .. } => &[Given, Then],
        StepBody::Does { .. }
        | StepBody::BotActs { .. }
        | StepBody::TimePasses { .. }
        | StepBody::TimeRunsOut => &[When],
        StepBody::HoldsCount { .. }
        | StepBody::SlotIs { .. }
        | StepBody::DrawPileTop(_)
        | StepBody::DiscardPileTop(_)
        | StepBody::DoesNotKnow { .. }
        | StepBody::EveryoneKnows(_)
        | StepBody::PhaseIs(_)
        | StepBody::Rejected { .. }
        | StepBody::ScoreIs { .. }
        | StepBody::Win(_)
        | StepBody::Draw
        | StepBody::Over
        | StepBody::NotOver
        | StepBody::SetupRejected { .. }
        | StepBody::DiscardPileHas(_)
        | StepBody::SeesInOrder { .. }
        | StepBody::MayDo { .. }
        | StepBody::Sees { .. }
        | StepBody::BotChose { .. }
        | StepBody::Receives { .. } => &[Then],
    }
}

/// The human-readable form of a step body, as in `grammar/README.md`.
fn template_of(body: &StepBody) -> &'static str {
    match body {
        StepBody::NewGame { .. } => "a <variant> game with players <player>, <player>, …",
        StepBody::Seed(_) => "the seed is <n>",
        StepBody::HouseRule { .. } => "the house rule <name> is <value>",
        StepBody::HouseRules(_) => "the house rules:",
        StepBody::Holds { .. } => "<player> holds <card>, <card>, …",
        StepBody::HoldsCount { .. } => "<player> holds <n> cards",
        StepBody::SlotIs { .. } => "<player>'s slot <n> is <card>",
        StepBody::DrawPileIs(_) => "the draw pile is <card>, <card>, …",
        StepBody::DeckIs(_) => "the deck is <card>, <card>, …",
        StepBody::DrawPileHas(_) => "the draw pile has <n> cards",
        StepBody::DrawPileTop(_) => "the draw pile top is <card>",
        StepBody::DiscardPileIs(_) => "the discard pile is <card>, <card>, …",
        StepBody::DiscardPileTop(_) => "the discard pile top is <card>",
        StepBody::Turn(_) => "it is <player>'s turn",
        StepBody::Knows { .. } => "<player> knows <card or slot>",
        StepBody::DoesNotKnow { .. } => "<player> does not know <card or slot>",
        StepBody::EveryoneKnows(_) => "everyone knows <card or slot>",
        StepBody::SetupRejected { .. } => "the setup is rejected with \"<text>\"",
        StepBody::DiscardPileHas(_) => "the discard pile has <n> cards",
        StepBody::SeesInOrder { .. } => "<player> sees, in order: <event>, <event>, …",
        StepBody::MayDo { allowed: true, .. } => "<player> may do <action> [<args>]",
        StepBody::MayDo { allowed: false, .. } => "<player> may not do <action> [<args>]",
        StepBody::FaceState { up: true, .. } => "<player>'s slot <n> is face up",
        StepBody::FaceState { up: false, .. } => "<player>'s slot <n> is face down",
        StepBody::Did { .. } => "<player> did <action> [<args>]",
        StepBody::Does { .. } => "<player> does <action> [<args>]",
        StepBody::BotSeat { .. } => "<player> is a <level> bot",
        StepBody::BotActs { .. } => "<player>'s bot acts",
        StepBody::BotChose {
            action: Some(_), ..
        } => "<player>'s bot chose <action> [<args>]",
        StepBody::BotChose { action: None, .. } => "<player>'s bot waited",
        StepBody::TimePasses { .. } => "<n> seconds pass",
        StepBody::TimeRunsOut => "time runs out",
        StepBody::PhaseIs(_) => "the phase is <phase>",
        StepBody::Rejected { .. } => "the action is rejected",
        StepBody::ScoreIs { .. } => "<player>'s score is <n>",
        StepBody::Win(_) => "<player> wins",
        StepBody::Draw => "the game is a draw",
        StepBody::Over => "the game is over",
        StepBody::NotOver => "the game is not over",
        StepBody::Property {
            player: Some(_), ..
        } => "<player>'s <property> is <value>",
        StepBody::Property { player: None, .. } => "the <property> is <value>",
        StepBody::Sees { .. } => "<player> sees <event>",
        StepBody::Receives { .. } => "<player> receives:",
    }
}

/// Is the body allowed with the step's kind (and `?` only in `Then`)?
fn check_kind(body: &StepBody, input: &StepInput<'_>, text_span: Span) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(kind) = input.kind else {
        return problems;
    };
    let allowed = allowed_kinds(body);
    if !allowed.contains(&kind) {
        let span = input.keyword.map_or(text_span, |(_, span)| span);
        let what = match allowed {
            [one] => format!("a {} step", kind_word(*one)),
            _ => "a Given or Then step".to_string(),
        };
        let mut message = format!("`{}` is {what}", template_of(body));
        match input.keyword {
            Some((keyword @ (StepKeyword::And | StepKeyword::But), _)) => {
                message.push_str(&format!(
                    ", but this `{}` continues a {} step",
                    keyword_word(keyword),
                    kind_word(kind)
                ))
            }
            _ => message.push_str(&format!(", not a {} step", kind_word(kind))),
        }
        let text = input.text.trim();
        let help = match body {
            StepBody::Does { .. } if kind == StepKind::Given => {
                "in a Given, an action that already happened is written with `did`: `Given ann did …`".to_string()
            }
            StepBody::Did { .. } if kind == StepKind::When => "to act in a When, write `does`: `When ann does …`".to_string(),
            _ => match allowed {
                [one] => format!("write `{} {text}`", kind_word(*one)),
                _ => format!("write `Given {text}` to set it up, or `Then {text}` to check it"),
            },
        };
        problems.push(Problem::new(message, span, "wrong keyword").with_help(Some(help)));
    }
    if kind != StepKind::Then
        && let StepBody::Holds { cards, .. } = body
    {
        for card in cards.iter().filter(|c| c.node == SlotPattern::Any) {
            problems.push(
                Problem::new(
                    "`?` (any card) is only for Then steps",
                    card.span,
                    "any card",
                )
                .with_help(Some(
                    "a Given names every card: write the card, or `_` for an empty slot".into(),
                )),
            );
        }
    }
    problems
}

/// Tables and doc strings: `the house rules:` takes a table, `receives:` a JSON doc string.
fn check_attachments(
    body: &mut StepBody,
    attachments: Attachments<'_>,
    text_span: Span,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    match body {
        StepBody::HouseRules(rules) => match attachments.table {
            Some(table) => *rules = house_rules(table, &mut problems),
            None => problems.push(
                Problem::new("`the house rules:` without a table", text_span, "no table").with_help(Some(
                    "follow it with rows like `| use_jokers | false |`, or write `the house rule <name> is <value>`"
                        .into(),
                )),
            ),
        },
        _ => {
            if let Some(table) = attachments.table {
                problems.push(
                    Problem::new("this step takes no table", table.span, "unexpected table").with_help(Some(
                        "only `Given the house rules:` takes a table".into(),
                    )),
                );
            }
        }
    }
    match body {
        StepBody::Receives { .. } => match attachments.doc {
            Some(doc) if attachments.check_json => {
                if let Some(problem) = check_json(doc, attachments.doc_map) {
                    problems.push(problem);
                }
            }
            Some(_) => {}
            None => problems.push(
                Problem::new("`receives:` without a doc string", text_span, "no JSON")
                    .with_help(Some(
                    "follow it with a doc string (between `\"\"\"` lines) holding a JSON object"
                        .into(),
                )),
            ),
        },
        _ => {
            if let Some(doc) = attachments.doc {
                problems.push(
                    Problem::new(
                        "this step takes no doc string",
                        Span::new(doc.span.start, doc.span.start + 3),
                        "unexpected doc string",
                    )
                    .with_help(Some(
                        "only `Then <player> receives:` takes a doc string".into(),
                    )),
                );
            }
        }
    }
    problems
}

/// The rows of a `the house rules:` table (a `| name | value |` header row is skipped).
fn house_rules(
    table: &Table,
    problems: &mut Vec<Problem>,
) -> Vec<(Spanned<String>, Spanned<Literal>)> {
    let mut rows = table.rows.as_slice();
    if let Some((first, rest)) = rows.split_first() {
        let header: Vec<String> = first
            .cells
            .iter()
            .map(|c| c.node.trim().to_lowercase())
            .collect();
        if header.len() == 2 && header[0] == "name" && header[1] == "value" {
            rows = rest;
        }
    }
    // A table's rows all have the width of its first row (a row that has not is reported with
    // the table), so a table of the wrong width is reported once.
    if let Some(first) = table.rows.first().filter(|r| r.cells.len() != 2) {
        problems.push(
            Problem::new(
                format!(
                    "a house-rules table has 2 columns, this one has {}",
                    first.cells.len()
                ),
                first.span,
                "not name and value",
            )
            .with_help(Some("write each rule as `| <name> | <value> |`".into())),
        );
        return Vec::new();
    }
    let mut out = Vec::new();
    for row in rows {
        let [name, value] = row.cells.as_slice() else {
            continue;
        };
        let mut cx = StepCx {
            offset: name.span.start,
            problems: Vec::new(),
        };
        let name_ok = ScenarioParser::parse(Rule::name_entry, &name.node).is_ok();
        if !name_ok {
            problems.push(
                Problem::new(
                    format!("`{}` is not a house-rule name", name.node),
                    name.span,
                    "not a name",
                )
                .with_help(Some(
                    "a name is a word of letters, digits and `_`, like `use_jokers`".into(),
                )),
            );
        }
        cx.offset = value.span.start;
        if too_deep(&value.node).is_some() {
            problems.push(nesting_problem(value.span.start));
            continue;
        }
        let literal = match ScenarioParser::parse(Rule::value_entry, &value.node) {
            Ok(mut pairs) => pairs
                .next()
                .and_then(|entry| entry.into_inner().find(|p| p.as_rule() != Rule::EOI))
                .and_then(|v| cx.literal(v, true)),
            Err(_) => {
                cx.problems.push(
                    Problem::new(
                        format!("`{}` is not a house-rule value", value.node),
                        value.span,
                        "not a value",
                    )
                    .with_help(Some(HOUSE_VALUE_HELP.into())),
                );
                None
            }
        };
        problems.extend(cx.problems);
        if let (true, Some(literal)) = (name_ok, literal) {
            out.push((name.clone(), Spanned::new(literal, value.span)));
        }
    }
    out
}

pub(super) const HOUSE_VALUE_HELP: &str =
    "a house-rule value is `true`, `false`, a number, a word or a list like `[0, 1]`";

/// Check that a `receives:` doc string holds a JSON object; point into it when not.
fn check_json(doc: &DocString, doc_map: Option<&[(usize, usize)]>) -> Option<Problem> {
    match serde_json::from_str::<serde_json::Value>(&doc.content) {
        Ok(serde_json::Value::Object(_)) => None,
        Ok(_) => Some(
            Problem::new(
                "the doc string is JSON, but not an object",
                doc.span,
                "not an object",
            )
            .with_help(Some(
                "`receives:` matches a JSON object: write `{ \"type\": … }`".into(),
            )),
        ),
        Err(e) => {
            let message = e.to_string();
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |i| &message[..i]);
            // Content offset of the error: serde counts lines from 1 and columns in bytes.
            let line_start: usize = doc
                .content
                .split('\n')
                .take(e.line().saturating_sub(1))
                .map(|l| l.len() + 1)
                .sum();
            let line_len = doc.content[line_start.min(doc.content.len())..]
                .find('\n')
                .unwrap_or(doc.content.len().saturating_sub(line_start));
            let mut offset =
                (line_start + e.column().saturating_sub(1).min(line_len)).min(doc.content.len());
            while !doc.content.is_char_boundary(offset) {
                offset -= 1;
            }
            let start = map_doc_offset(doc, doc_map, offset);
            let width = doc.content[offset..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
            Some(
                Problem::new(
                    format!("invalid JSON: {message}"),
                    Span::new(start, start + width),
                    "here",
                )
                .with_help(Some(
                    "`receives:` takes a JSON object, such as `{ \"type\": \"game_player_turn\" }`"
                        .into(),
                )),
            )
        }
    }
}

/// The file offset of a content offset of a doc string.
pub(super) fn map_doc_offset(
    doc: &DocString,
    doc_map: Option<&[(usize, usize)]>,
    offset: usize,
) -> usize {
    doc_map
        .and_then(|map| {
            let i = map.partition_point(|(content, _)| *content <= offset);
            i.checked_sub(1).map(|i| map[i])
        })
        .map_or(doc.span.start, |(content, file)| file + (offset - content))
}

/// An "unknown step" problem: underline the word where the step departs from the closest form
/// (or, when its words are right, where parsing stopped), and name that form.
fn unknown_step(
    text: &str,
    offset: usize,
    kind: Option<StepKind>,
    e: &pest::error::Error<Rule>,
) -> Problem {
    let (template, departure) = closest_template(text, kind);
    let span = departure.unwrap_or_else(|| {
        let mut pos = error_pos(e).min(text.len());
        while pos < text.len() && text[pos..].starts_with([' ', '\t']) {
            pos += 1;
        }
        let rest = &text[pos..];
        let mut len = rest.find([' ', '\t', ',']).unwrap_or(rest.len());
        if len == 0 {
            len = rest.chars().next().map_or(0, char::len_utf8);
        }
        Span::new(pos, pos + len)
    });
    let help = match template {
        Some(template) => format!("did you mean `{template}`?"),
        None => "see the step forms in grammar/README.md".to_string(),
    };
    Problem::new(
        "unknown step",
        Span::new(offset + span.start, offset + span.end),
        "not understood",
    )
    .with_help(Some(help))
}
