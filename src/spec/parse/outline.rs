//! Checking every step once the file's structure is known: plain steps are parsed as they are,
//! Scenario Outline steps once per Examples row after `<placeholder>` substitution, so that a bad
//! cell is reported at its row before anything runs.

use super::fill::{Columns, FILLED_BASE, Mapped, examples_columns, fill};
use super::placeholders;
use super::step::{Attachments, StepInput, check_step, map_doc_offset};
use crate::spec::ast::{Background, DocString, Examples, Row, Scenario, Span, Spanned, Step};
use crate::spec::diag::{LineIndex, Problem, did_you_mean};
use std::collections::{HashMap, HashSet};

/// An outline's Examples tables, and each one's columns by name with its rows.
type Outline<'a, 'b> = (&'a [Examples], &'b [(Columns<'a>, &'a [Row])]);

/// Where a problem with one row of an outline step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// In the text of the step (or its keyword or table): the same for every row.
    Step(Span),
    /// In a cell's value: the cell, and the placeholder in the step it filled.
    Cell { cell: Span, placeholder: Span },
    /// Somewhere in a filled doc string: shown at the row.
    Row,
}

/// Checks every step once the structure is known (outlines need their Examples).
pub(super) struct Checker<'a> {
    pub(super) lines: &'a LineIndex,
    pub(super) problems: Vec<Problem>,
    pub(super) unknown_kind: &'a HashSet<usize>,
    pub(super) keyword_spans: &'a HashMap<usize, Span>,
    pub(super) doc_maps: &'a HashMap<usize, Vec<(usize, usize)>>,
    pub(super) broken_docs: &'a HashSet<usize>,
}

impl Checker<'_> {
    pub(super) fn container(
        &mut self,
        background: &mut Option<Background>,
        scenarios: &mut [Scenario],
    ) {
        if let Some(background) = background {
            self.steps(&mut background.steps);
        }
        for scenario in scenarios {
            if scenario.is_outline {
                if scenario.examples.is_empty() {
                    self.problems.push(
                        Problem::new("`Scenario Outline:` without `Examples:`", scenario.span, "no examples")
                            .with_help(Some(
                                "add an `Examples:` table: a header row naming the `<placeholders>`, then one row per run"
                                    .into(),
                            )),
                    );
                }
                for examples in &scenario.examples {
                    if examples.table.rows.is_empty() {
                        self.problems.push(
                            Problem::new("`Examples:` without a table", examples.span, "no table").with_help(Some(
                                "add a table: a header row naming the `<placeholders>`, then one row per run".into(),
                            )),
                        );
                    }
                }
                let tables = examples_columns(&scenario.examples);
                for step in &mut scenario.steps {
                    self.step(step, Some((&scenario.examples, &tables)));
                }
            } else {
                self.steps(&mut scenario.steps);
            }
        }
    }

    pub(super) fn steps(&mut self, steps: &mut [Step]) {
        for step in steps {
            self.step(step, None);
        }
    }

    pub(super) fn step(&mut self, step: &mut Step, outline: Option<Outline<'_, '_>>) {
        let kind = (!self.unknown_kind.contains(&step.span.start)).then_some(step.kind);
        let keyword_span = self
            .keyword_spans
            .get(&step.span.start)
            .copied()
            .unwrap_or(Span::new(step.span.start, step.span.start));
        let doc_map = step
            .doc
            .as_ref()
            .and_then(|d| self.doc_maps.get(&d.span.start))
            .map(Vec::as_slice);
        let doc_ok = step
            .doc
            .as_ref()
            .is_none_or(|d| !self.broken_docs.contains(&d.span.start));
        let table = step.table.clone();
        let base = StepInput {
            text: "",
            offset: step.text_span.start,
            kind,
            keyword: Some((step.keyword, keyword_span)),
            attachments: Some(Attachments {
                table: table.as_ref(),
                doc: None,
                doc_map,
                check_json: doc_ok,
            }),
        };
        let in_text = placeholders(&step.text, step.text_span.start);
        let Some((examples, tables)) = outline else {
            if let Some(first) = in_text.first() {
                self.problems.push(
                    Problem::new(
                        format!("`<{}>` is a placeholder, but this is not a `Scenario Outline:`", first.node),
                        first.span,
                        "placeholder",
                    )
                    .with_help(Some(
                        "write the value itself, or make this a `Scenario Outline:` with `Examples:`".into(),
                    )),
                );
                return;
            }
            match check_step(&base.with(&step.text, step.doc.as_ref(), true)) {
                Ok(body) => step.body = Some(body),
                Err(problems) => self.problems.extend(problems),
            }
            return;
        };
        // A Scenario Outline step: placeholders are replaced in its text and doc string.
        let in_doc: Vec<Spanned<String>> = match &step.doc {
            Some(doc) => placeholders(&doc.content, 0)
                .into_iter()
                .map(|p| {
                    let start = map_doc_offset(doc, doc_map, p.span.start);
                    let end = map_doc_offset(doc, doc_map, p.span.end);
                    Spanned::new(p.node, Span::new(start, end))
                })
                .collect(),
            None => Vec::new(),
        };
        let in_table: Vec<Spanned<String>> = step
            .table
            .iter()
            .flat_map(|t| &t.rows)
            .flat_map(|r| &r.cells)
            .flat_map(|c| placeholders(&c.node, c.span.start).into_iter().take(1))
            .collect();
        for placeholder in &in_table {
            self.problems.push(
                Problem::new(
                    format!("`<{}>` in a table is not replaced", placeholder.node),
                    placeholder.span,
                    "placeholder",
                )
                .with_help(Some(
                    "placeholders are replaced in step text and doc strings only: write the value here".into(),
                )),
            );
        }
        // Problems about a placeholder in a table are already reported (spans in file order).
        let in_table_spans: Vec<Span> = in_table.iter().map(|p| p.span).collect();
        let keep = |p: &Problem| {
            let i = in_table_spans.partition_point(|s| s.start <= p.span.start);
            i == 0 || in_table_spans[i - 1].end <= p.span.start
        };
        let mut columns_ok = true;
        for placeholder in in_text.iter().chain(&in_doc) {
            if let Some(problem) = missing_column(self.lines, placeholder, examples, tables) {
                columns_ok = false;
                self.problems.push(problem);
            }
        }
        if in_text.is_empty() {
            match check_step(&base.with(&step.text, step.doc.as_ref(), in_doc.is_empty())) {
                Ok(body) => step.body = Some(body),
                Err(problems) => {
                    self.problems.extend(problems.into_iter().filter(keep));
                    return;
                }
            }
        } else {
            step.body = None;
        }
        if !columns_ok || (in_text.is_empty() && in_doc.is_empty()) {
            return;
        }
        // Try every example now, so that a bad cell is reported before anything runs. A filled
        // text is parsed at `FILLED_BASE`, so its spans are told from file spans and mapped back:
        // to the step's own text, or to the cell a value came from.
        let line = self.lines.line(step.span.start);
        let doc_span = step.doc.as_ref().map(|d| d.span);
        let mut failures: Vec<(&Row, Problem, Source)> = Vec::new();
        let mut rows_tried = 0usize;
        for (columns, rows) in tables {
            for row in rows.iter() {
                rows_tried += 1;
                let filled = fill(&step.text, step.text_span.start, columns, row);
                let doc = step.doc.as_ref().map(|d| DocString {
                    span: d.span,
                    content: fill(&d.content, 0, columns, row).text,
                });
                let mut input = base.with(&filled.text, doc.as_ref(), true);
                input.offset = FILLED_BASE;
                let Err(problems) = check_step(&input) else {
                    continue;
                };
                let Some(problem) = problems.into_iter().find(|p| keep(p)) else {
                    continue;
                };
                let source = if problem.span.start >= FILLED_BASE {
                    let local = Span::new(
                        problem.span.start - FILLED_BASE,
                        problem.span.end.saturating_sub(FILLED_BASE),
                    );
                    match filled.map(local) {
                        Mapped::Template(span) => Source::Step(span),
                        Mapped::Cell { cell, placeholder } => Source::Cell { cell, placeholder },
                    }
                } else if !in_doc.is_empty()
                    && doc_span.is_some_and(|d| {
                        d.start <= problem.span.start && problem.span.start < d.end
                    })
                {
                    Source::Row
                } else {
                    Source::Step(problem.span)
                };
                failures.push((row, problem, source));
            }
        }
        // A problem that every row has is the template's own, and is reported once, at the step.
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for (_, problem, _) in &failures {
            *counts.entry(problem.message.as_str()).or_default() += 1;
        }
        let mut reported = HashSet::new();
        for (row, problem, source) in &failures {
            let everywhere = rows_tried > 1 && counts[problem.message.as_str()] == rows_tried;
            let (span, label, suffix) = match (*source, everywhere) {
                (_, true) if !reported.insert(problem.message.clone()) => continue,
                (
                    Source::Step(span)
                    | Source::Cell {
                        placeholder: span, ..
                    },
                    true,
                ) => (span, problem.label.clone(), String::new()),
                (Source::Row, true) => (step.text_span, problem.label.clone(), String::new()),
                (Source::Step(span), false) => (
                    span,
                    problem.label.clone(),
                    format!(
                        " (with the Examples row on line {})",
                        self.lines.line(row.span.start)
                    ),
                ),
                (Source::Cell { cell, .. }, false) => (
                    cell,
                    "from this row".to_string(),
                    format!(" (the step on line {line}, with this row)"),
                ),
                (Source::Row, false) => (
                    row.span,
                    "this row".to_string(),
                    format!(" (the step on line {line}, with this row)"),
                ),
            };
            self.problems.push(
                Problem::new(format!("{}{suffix}", problem.message), span, label)
                    .with_help(problem.help.clone()),
            );
        }
    }
}

/// A problem when `placeholder` is not a column of some `Examples:` table.
fn missing_column(
    lines: &LineIndex,
    placeholder: &Spanned<String>,
    examples: &[Examples],
    tables: &[(Columns<'_>, &[Row])],
) -> Option<Problem> {
    let with_header: Vec<(&Examples, &Row, &Columns<'_>)> = examples
        .iter()
        .filter_map(|e| e.table.rows.first().map(|h| (e, h)))
        .zip(tables)
        .map(|((e, h), (columns, _))| (e, h, columns))
        .collect();
    let missing: Vec<(&Examples, &Row)> = with_header
        .iter()
        .filter(|(_, _, columns)| columns.get(&placeholder.node).is_none())
        .map(|(e, h, _)| (*e, *h))
        .collect();
    let (_, first_header) = missing.first()?;
    let place = if with_header.len() == 1 {
        "the `Examples:` table".to_string()
    } else if missing.len() == with_header.len() {
        "any `Examples:` table".to_string()
    } else {
        let lines: Vec<String> = missing
            .iter()
            .map(|(e, _)| lines.line(e.span.start).to_string())
            .collect();
        format!("the `Examples:` table on line {}", lines.join(", "))
    };
    let columns: Vec<&str> = first_header.cells.iter().map(|c| c.node.as_str()).collect();
    let help = match did_you_mean(&placeholder.node, columns.iter().copied()) {
        Some(close) => format!("did you mean `<{close}>`?"),
        None if columns.is_empty() => {
            "add a column with this name to the table's header row".to_string()
        }
        None => {
            let names: Vec<String> = columns.iter().map(|c| format!("`{c}`")).collect();
            let have = match names.as_slice() {
                [one] => format!("the only column is {one}"),
                _ => format!("the columns are {}", names.join(", ")),
            };
            format!(
                "{have}; add a column `{}` or fix the name",
                placeholder.node
            )
        }
    };
    Some(
        Problem::new(
            format!("`<{}>` is not a column of {place}", placeholder.node),
            placeholder.span,
            "no such column",
        )
        .with_help(Some(help)),
    )
}
