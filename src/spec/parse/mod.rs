//! Parse `.feature` files into the scenario AST: the file grammar finds the Gherkin structure, the
//! step grammar types each step.
//!
//! Both levels are in `grammar/scenario.pest`. `parse_feature` first reads the file line by line
//! (entry rule `file`, which accepts every line) and builds the Feature / Rule / Background /
//! Scenario / Examples structure; then it parses each step's text on its own (entry rule `step`).
//! Every problem of the file is collected, each with the span of the offending text and a hint.
//!
//! The parts: `structure` (the Gherkin structure, line by line), `lines` (lines no rule accepts:
//! descriptions, misspelled keywords, broken tags), `outline` (checking every step once the
//! structure is known, outline steps once per Examples row), `step` (one step: its text, keyword,
//! table and doc string), `values` (pest pairs to typed step bodies) and `suggest` (the closest
//! step form, for "did you mean").

use crate::spec::ast::{
    DocString, Feature, Row, Span, Spanned, StepBody, StepKeyword, StepKind, Table,
};
use crate::spec::diag::Problem;
use crate::spec::limits::MAX_FILE_BYTES;
use pest::Parser as _;
use pest::error::InputLocation;
use pest::iterators::Pair;

mod fill;
pub mod format;
mod lines;
mod outline;
mod step;
mod structure;
mod suggest;
pub use suggest::step_forms;
#[cfg(test)]
mod tests;
mod values;

mod grammar {
    //! The pest parser generated from `grammar/scenario.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/scenario.pest"]
    pub struct ScenarioParser;
}

use grammar::{Rule, ScenarioParser};
use step::{Attachments, StepInput, check_step};
use structure::Builder;

// ───────────────────────────── API ─────────────────────────────

/// Parse a whole file. Collects every problem in the file (not only the first), in file order.
pub fn parse_feature(src: &str) -> Result<Feature, Vec<Problem>> {
    match parse_feature_partly(src) {
        (Some(feature), problems) if problems.is_empty() => Ok(feature),
        (_, problems) => Err(problems),
    }
}

/// Parse a whole file as far as it goes: every problem, in file order, and the feature even when
/// there are problems (a step that does not parse has no body), so that the rest of the file can
/// still be checked. No feature when there is no structure to check (no `Feature:`, a file too
/// big, an outline that expands too far).
pub fn parse_feature_partly(src: &str) -> (Option<Feature>, Vec<Problem>) {
    if src.len() > MAX_FILE_BYTES {
        return (None, vec![file_too_big()]);
    }
    let mut builder = Builder::new(src);
    match ScenarioParser::parse(Rule::file, src) {
        Ok(mut pairs) => {
            if let Some(file) = pairs.next() {
                for line in file.into_inner() {
                    builder.line(line);
                }
            }
        }
        // The file rule accepts any text; this is only a safety net.
        Err(e) => {
            let pos = error_pos(&e).min(src.len());
            return (
                None,
                vec![Problem::new(
                    "this file cannot be read as a scenario file",
                    Span::new(pos, pos),
                    "here",
                )],
            );
        }
    }
    builder.finish()
}

/// The problem of a file larger than `MAX_FILE_BYTES`.
pub fn file_too_big() -> Problem {
    Problem::new(
        format!(
            "this file is larger than {MAX_FILE_BYTES} bytes (4 MiB), the limit for a scenario file"
        ),
        Span::default(),
        "too big",
    )
    .with_help(Some("split it into several files".into()))
}

/// Parse one step's text (the part after the keyword), as found at byte `offset` of the file, for
/// a step of `kind`. Used for Scenario Outline steps after `<placeholder>` substitution. Spans in
/// the result are file offsets.
///
/// Tables and doc strings are not seen here: `the house rules:` gives an empty `HouseRules` (its
/// rows are in the step's table) and `<player> receives:` does not check its JSON. Use
/// [`parse_step_with`] for a step that has a table or a doc string.
pub fn parse_step_body(text: &str, offset: usize, kind: StepKind) -> Result<StepBody, Problem> {
    let input = StepInput {
        text,
        offset,
        kind: Some(kind),
        keyword: None,
        attachments: None,
    };
    check_step(&input).map_err(|problems| {
        problems.into_iter().next().unwrap_or_else(|| {
            Problem::new(
                "unknown step",
                Span::new(offset, offset + text.len()),
                "here",
            )
        })
    })
}

/// Like [`parse_step_body`], with the step's table and doc string: `the house rules:` reads its
/// rows from the table, `receives:` checks the doc string's JSON, and any other step with a table
/// or a doc string is an error. All problems are returned.
pub fn parse_step_with(
    text: &str,
    offset: usize,
    kind: StepKind,
    table: Option<&Table>,
    doc: Option<&DocString>,
) -> Result<StepBody, Vec<Problem>> {
    let input = StepInput {
        text,
        offset,
        kind: Some(kind),
        keyword: None,
        attachments: Some(Attachments {
            table,
            doc,
            doc_map: None,
            check_json: true,
        }),
    };
    check_step(&input)
}

/// The `<placeholder>` names in a step text, in order, each with its span (offset by `offset`).
pub fn placeholders(text: &str, offset: usize) -> Vec<Spanned<String>> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find('<').map(|i| rest + i) {
        let after = &text[open + 1..];
        let close = after
            .find(['>', '<', '\n'])
            .filter(|&i| i > 0 && after[i..].starts_with('>'));
        match close {
            Some(len) => {
                let end = open + 1 + len + 1;
                out.push(Spanned::new(
                    after[..len].to_string(),
                    Span::new(offset + open, offset + end),
                ));
                rest = end;
            }
            None => rest = open + 1,
        }
    }
    out
}

/// A template text with each `<column>` of `header` replaced by the cell of `row` below it.
pub fn substitute(template: &str, header: &Row, row: &Row) -> String {
    fill::fill(template, 0, &fill::Columns::new(header), row).text
}

/// Like [`substitute`], with the columns of the table already looked up.
pub(crate) fn fill_text(template: &str, columns: &Columns<'_>, row: &Row) -> String {
    fill::fill(template, 0, columns, row).text
}

pub(crate) use fill::{Columns, fill_step};

// ─────────────────────────── shared helpers ───────────────────────────

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

/// The span of a pair's text without trailing spaces.
fn trimmed_span_of(pair: &Pair<'_, Rule>) -> Span {
    let start = pair.as_span().start();
    Span::new(start, start + pair.as_str().trim_end().len())
}

/// Where the line holding byte `pos` starts: after the last line break before it (`\n`, `\r\n` or
/// a lone `\r`). Scans back only over that line.
fn line_start(src: &str, pos: usize) -> usize {
    src[..pos.min(src.len())]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1)
}

fn keyword_of(kind: StepKind) -> StepKeyword {
    match kind {
        StepKind::Given => StepKeyword::Given,
        StepKind::When => StepKeyword::When,
        StepKind::Then => StepKeyword::Then,
    }
}

fn keyword_word(keyword: StepKeyword) -> &'static str {
    match keyword {
        StepKeyword::Given => "Given",
        StepKeyword::When => "When",
        StepKeyword::Then => "Then",
        StepKeyword::And => "And",
        StepKeyword::But => "But",
    }
}

fn kind_word(kind: StepKind) -> &'static str {
    keyword_word(keyword_of(kind))
}

/// Problems in file order, without duplicates.
fn sorted(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| (p.span.start, p.span.end));
    problems.dedup();
    problems
}

/// The pest error position.
fn error_pos(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    }
}
