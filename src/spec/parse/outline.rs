//! Checking every step once the file's structure is known: plain steps are parsed as they are,
//! Scenario Outline steps once per Examples row after `<placeholder>` substitution, so that a bad
//! cell is reported at its row before anything runs.

use super::step::{Attachments, StepInput, check_step, map_doc_offset};
use super::{placeholders, substitute};
use crate::spec::ast::{Background, DocString, Examples, Row, Scenario, Span, Spanned, Step};
use crate::spec::diag::{Problem, did_you_mean, line_col};
use std::collections::{HashMap, HashSet};

/// Checks every step once the structure is known (outlines need their Examples).
pub(super) struct Checker<'a> {
    pub(super) src: &'a str,
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
            self.steps(&mut background.steps, None);
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
                self.steps(&mut scenario.steps, Some(&scenario.examples));
            } else {
                self.steps(&mut scenario.steps, None);
            }
        }
    }

    pub(super) fn steps(&mut self, steps: &mut [Step], outline: Option<&[Examples]>) {
        for step in steps {
            self.step(step, outline);
        }
    }

    pub(super) fn step(&mut self, step: &mut Step, outline: Option<&[Examples]>) {
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
        let Some(examples) = outline else {
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
        // Problems about a placeholder in a table are already reported.
        let in_table_spans: Vec<Span> = in_table.iter().map(|p| p.span).collect();
        let keep = |p: &Problem| {
            !in_table_spans
                .iter()
                .any(|s| s.start <= p.span.start && p.span.start < s.end)
        };
        let mut columns_ok = true;
        for placeholder in in_text.iter().chain(&in_doc) {
            if let Some(problem) = missing_column(self.src, placeholder, examples) {
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
        // Try every example now, so that a bad cell is reported before anything runs. A problem
        // that every row has is the template's own, and is reported once, at the step.
        let (line, _) = line_col(self.src, step.span.start);
        let mut failures: Vec<(Span, Problem)> = Vec::new();
        let mut rows_tried = 0;
        for example in examples {
            let Some((header, rows)) = example.table.rows.split_first() else {
                continue;
            };
            for row in rows {
                rows_tried += 1;
                let text = substitute(&step.text, header, row);
                let doc = step.doc.as_ref().map(|d| DocString {
                    span: d.span,
                    content: substitute(&d.content, header, row),
                });
                if let Err(problems) = check_step(&base.with(&text, doc.as_ref(), true))
                    && let Some(problem) = problems.into_iter().find(|p| keep(p))
                {
                    failures.push((row.span, problem));
                }
            }
        }
        // Spans into the substituted text match the file up to the first placeholder.
        let exact_until = in_text.first().map_or(usize::MAX, |p| p.span.start);
        let mut reported = HashSet::new();
        for (row, problem) in &failures {
            let count = failures
                .iter()
                .filter(|(_, p)| p.message == problem.message)
                .count();
            if rows_tried > 1 && count == rows_tried {
                if reported.insert(problem.message.clone()) {
                    let mut problem = problem.clone();
                    if problem.span.end > exact_until {
                        problem.span = step.text_span;
                    }
                    self.problems.push(problem);
                }
            } else {
                self.problems.push(
                    Problem::new(
                        format!(
                            "{} (the step on line {line}, with this row)",
                            problem.message
                        ),
                        *row,
                        "this row",
                    )
                    .with_help(problem.help.clone()),
                );
            }
        }
    }
}

/// A problem when `placeholder` is not a column of some `Examples:` table.
fn missing_column(
    src: &str,
    placeholder: &Spanned<String>,
    examples: &[Examples],
) -> Option<Problem> {
    let with_header: Vec<(&Examples, &Row)> = examples
        .iter()
        .filter_map(|e| e.table.rows.first().map(|h| (e, h)))
        .collect();
    let missing: Vec<&(&Examples, &Row)> = with_header
        .iter()
        .filter(|(_, header)| !header.cells.iter().any(|c| c.node == placeholder.node))
        .collect();
    let (_, first_header) = missing.first()?;
    let place = if with_header.len() == 1 {
        "the `Examples:` table".to_string()
    } else if missing.len() == with_header.len() {
        "any `Examples:` table".to_string()
    } else {
        let lines: Vec<String> = missing
            .iter()
            .map(|(e, _)| line_col(src, e.span.start).0.to_string())
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
