//! Filling a Scenario Outline step's `<placeholders>` from one Examples row, keeping where each
//! part of the filled text came from (the step line, or a cell of the row), so that a problem in
//! the filled step points at the step or at the cell; and the bound on how much a file expands.

use super::placeholders;
use crate::spec::ast::{Background, Examples, Feature, Row, Scenario, Span, Spanned, Step};
use crate::spec::diag::{LineIndex, Problem};
use crate::spec::limits::{MAX_EXPANDED_BYTES, MAX_EXPANDED_STEPS, MAX_FILLED_STEP_BYTES};
use std::collections::HashMap;

/// Spans of a filled text are made from this offset on while the text is parsed, so that they
/// cannot be taken for file offsets (a file is at most a few MiB); [`Filled::map`] turns them
/// back into file spans.
pub const FILLED_BASE: usize = usize::MAX / 4;

/// The columns of an Examples table by name (the first of two columns with one name wins).
pub struct Columns<'a> {
    by_name: HashMap<&'a str, usize>,
}

impl<'a> Columns<'a> {
    pub fn new(header: &'a Row) -> Columns<'a> {
        let mut by_name = HashMap::new();
        for (i, cell) in header.cells.iter().enumerate() {
            by_name.entry(cell.node.as_str()).or_insert(i);
        }
        Columns { by_name }
    }

    pub fn get(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
}

/// Where a part of a filled text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Template text, starting at this file offset.
    Template(usize),
    /// The cell of the row that replaced a placeholder.
    Cell { placeholder: Span, cell: Span },
}

/// A step text with its placeholders filled from one row.
#[derive(Clone, Debug)]
pub struct Filled {
    pub text: String,
    /// Each part: where it starts in `text`, and where it came from.
    parts: Vec<(usize, Origin)>,
}

/// Where a span of a filled text is in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapped {
    /// In the text of the step itself.
    Template(Span),
    /// In (or across) the value of a cell: the cell in its row, and the placeholder it filled.
    Cell { cell: Span, placeholder: Span },
}

impl Mapped {
    /// The file span a problem there is shown at.
    pub fn span(self) -> Span {
        match self {
            Mapped::Template(span) | Mapped::Cell { cell: span, .. } => span,
        }
    }
}

/// The placeholders of `template` (found at file offset `at`) that name a column, with the column.
fn known_placeholders(
    template: &str,
    at: usize,
    columns: &Columns<'_>,
) -> Vec<(Spanned<String>, usize)> {
    placeholders(template, at)
        .into_iter()
        .filter_map(|p| columns.get(&p.node).map(|c| (p, c)))
        .collect()
}

/// Fill `template` (the text of a step, at file offset `at`) from `row`. A placeholder that names
/// no column, or a column the row has no cell for, stays as written.
pub fn fill(template: &str, at: usize, columns: &Columns<'_>, row: &Row) -> Filled {
    let mut text = String::with_capacity(template.len());
    let mut parts = Vec::new();
    let mut last = 0;
    for (placeholder, column) in known_placeholders(template, at, columns) {
        let Some(cell) = row.cells.get(column) else {
            continue;
        };
        let start = placeholder.span.start - at;
        if start > last {
            parts.push((text.len(), Origin::Template(at + last)));
            text.push_str(&template[last..start]);
        }
        parts.push((
            text.len(),
            Origin::Cell {
                placeholder: placeholder.span,
                cell: cell.span,
            },
        ));
        text.push_str(&cell.node);
        last = placeholder.span.end - at;
    }
    if last < template.len() || parts.is_empty() {
        parts.push((text.len(), Origin::Template(at + last)));
        text.push_str(&template[last..]);
    }
    Filled { text, parts }
}

impl Filled {
    /// The part holding byte `at` of the text (the last part for the end of the text).
    fn part(&self, at: usize) -> usize {
        self.parts
            .partition_point(|(start, _)| *start <= at)
            .saturating_sub(1)
    }

    /// The file offset of byte `at` of the text, when that byte is template text.
    fn template_offset(&self, part: usize, at: usize) -> Option<usize> {
        match self.parts.get(part)? {
            (start, Origin::Template(file)) => Some(file + (at - start)),
            _ => None,
        }
    }

    /// Where a span of the text (offsets into `text`) is in the file.
    pub fn map(&self, span: Span) -> Mapped {
        let start = span.start.min(self.text.len());
        let end = span.end.clamp(start, self.text.len());
        let first = self.part(start);
        let last = if end > start {
            self.part(end - 1)
        } else {
            first
        };
        for part in first..=last {
            if let Some((_, Origin::Cell { placeholder, cell })) = self.parts.get(part) {
                return Mapped::Cell {
                    cell: *cell,
                    placeholder: *placeholder,
                };
            }
        }
        let from = self.template_offset(first, start).unwrap_or(0);
        let to = if end > start {
            self.template_offset(last, end - 1).map_or(from, |o| o + 1)
        } else {
            from
        };
        Mapped::Template(Span::new(from, to.max(from)))
    }
}

/// One run of an outline step: its text and doc string filled from `row`, and parsed (when its text
/// has placeholders), with every span of the body in the file: a value that came from a cell
/// points at the cell. The problems, when the filled step does not parse, point the same way.
pub fn fill_step(step: &Step, columns: &Columns<'_>, row: &Row) -> Result<Step, Vec<Problem>> {
    let mut out = step.clone();
    if let Some(doc) = &mut out.doc {
        doc.content = fill(&doc.content, 0, columns, row).text;
    }
    if out.body.is_some() {
        return Ok(out);
    }
    let filled = fill(&step.text, step.text_span.start, columns, row);
    let to_file = |span: &mut Span| {
        if span.start >= FILLED_BASE {
            let local = Span::new(
                span.start - FILLED_BASE,
                span.end.saturating_sub(FILLED_BASE),
            );
            *span = filled.map(local).span();
        }
    };
    match super::parse_step_with(
        &filled.text,
        FILLED_BASE,
        step.kind,
        out.table.as_ref(),
        out.doc.as_ref(),
    ) {
        Ok(mut body) => {
            for span in body.spans_mut() {
                to_file(span);
            }
            out.body = Some(body);
            out.text = filled.text;
            Ok(out)
        }
        Err(mut problems) => {
            for problem in &mut problems {
                to_file(&mut problem.span);
            }
            Err(problems)
        }
    }
}

/// How one template fills from the rows of one Examples table: its length without the
/// placeholders that name a column, and per column used, how often and how many bytes they take.
struct Shape {
    base: usize,
    uses: Vec<(usize, usize, usize)>,
}

impl Shape {
    fn new(template: &str, columns: &Columns<'_>) -> Shape {
        let mut base = template.len();
        let mut uses: HashMap<usize, (usize, usize)> = HashMap::new();
        for (placeholder, column) in known_placeholders(template, 0, columns) {
            base -= placeholder.span.len();
            let entry = uses.entry(column).or_default();
            entry.0 += 1;
            entry.1 += placeholder.span.len();
        }
        Shape {
            base,
            uses: uses.into_iter().map(|(c, (n, w))| (c, n, w)).collect(),
        }
    }

    /// The filled length with `row` (a placeholder whose cell is missing stays as written).
    fn len(&self, row: &Row) -> usize {
        self.uses
            .iter()
            .fold(self.base, |len, (column, count, written)| {
                len + row
                    .cells
                    .get(*column)
                    .map_or(*written, |cell| count * cell.node.len())
            })
    }
}

/// The size a step adds to an expansion besides its text: its doc string and table.
fn attachments_size(step: &Step) -> usize {
    step.doc.as_ref().map_or(0, |d| d.content.len())
        + step.table.as_ref().map_or(0, |t| t.span.len())
}

/// Counts the steps and bytes of an expansion against the limits.
struct Budget<'a> {
    lines: &'a LineIndex,
    steps: usize,
    bytes: usize,
}

impl Budget<'_> {
    /// Add one run of a scenario; a problem at the scenario once a limit is passed.
    fn add(&mut self, steps: usize, bytes: usize, scenario: &Scenario) -> Option<Problem> {
        self.steps = self.steps.saturating_add(steps);
        self.bytes = self.bytes.saturating_add(bytes);
        if self.steps <= MAX_EXPANDED_STEPS && self.bytes <= MAX_EXPANDED_BYTES {
            return None;
        }
        let what = if self.steps > MAX_EXPANDED_STEPS {
            format!("{MAX_EXPANDED_STEPS} steps")
        } else {
            format!("{} MiB of steps", MAX_EXPANDED_BYTES / (1024 * 1024))
        };
        Some(
            Problem::new(
                format!(
                    "this file expands to more than {what} (backgrounds are repeated for every scenario, outlines for every Examples row)"
                ),
                scenario.span,
                "the limit is reached here",
            )
            .with_help(Some(
                "split the file, or use fewer or smaller background steps and Examples rows".into(),
            )),
        )
    }

    /// A problem when `row` makes `step` longer than a filled step may be.
    fn filled_step(&self, step: &Step, len: usize, row: &Row) -> Option<Problem> {
        (len > MAX_FILLED_STEP_BYTES).then(|| {
            Problem::new(
                format!(
                    "with this row, the step on line {} is {len} bytes long; a step is at most {MAX_FILLED_STEP_BYTES} bytes once its placeholders are filled",
                    self.lines.line(step.span.start)
                ),
                row.span,
                "this row",
            )
            .with_help(Some("use shorter cells, or fewer placeholders".into()))
        })
    }
}

/// A problem when the file expands to more steps or bytes than the limits allow (backgrounds
/// repeated for each scenario, outlines for each row), or when a row makes a step too long. Stops
/// at the first problem, so its own work is bounded by the limits.
pub fn check_expansion(feature: &Feature, lines: &LineIndex) -> Option<Problem> {
    let mut budget = Budget {
        lines,
        steps: 0,
        bytes: 0,
    };
    let feature_bg = background_steps(&feature.background);
    let mut blocks = vec![(feature_bg.clone(), &feature.scenarios)];
    for rule in &feature.rules {
        let mut bg = feature_bg.clone();
        bg.extend(background_steps(&rule.background));
        blocks.push((bg, &rule.scenarios));
    }
    for (background, scenarios) in blocks {
        let bg_bytes: usize = background
            .iter()
            .map(|s| s.text.len() + attachments_size(s))
            .sum();
        for scenario in scenarios {
            let own = background.len() + scenario.steps.len();
            if !scenario.is_outline {
                let bytes: usize = scenario
                    .steps
                    .iter()
                    .map(|s| s.text.len() + attachments_size(s))
                    .sum();
                if let Some(problem) = budget.add(own, bg_bytes + bytes, scenario) {
                    return Some(problem);
                }
                continue;
            }
            for (columns, rows) in examples_columns(&scenario.examples) {
                let shapes: Vec<(&Step, Shape, Option<Shape>, usize)> = scenario
                    .steps
                    .iter()
                    .map(|s| {
                        let doc = s.doc.as_ref().map(|d| Shape::new(&d.content, &columns));
                        let table = s.table.as_ref().map_or(0, |t| t.span.len());
                        (s, Shape::new(&s.text, &columns), doc, table)
                    })
                    .collect();
                for row in rows {
                    let mut bytes = bg_bytes;
                    for (step, text, doc, table) in &shapes {
                        let len = text.len(row);
                        if let Some(problem) = budget.filled_step(step, len, row) {
                            return Some(problem);
                        }
                        bytes += len + doc.as_ref().map_or(0, |d| d.len(row)) + table;
                    }
                    if let Some(problem) = budget.add(own, bytes, scenario) {
                        return Some(problem);
                    }
                }
            }
        }
    }
    None
}

fn background_steps(background: &Option<Background>) -> Vec<&Step> {
    background.iter().flat_map(|b| b.steps.iter()).collect()
}

/// The columns of each Examples table that has a header row, with its other rows.
pub fn examples_columns(examples: &[Examples]) -> Vec<(Columns<'_>, &[Row])> {
    examples
        .iter()
        .filter_map(|e| e.table.rows.split_first())
        .map(|(header, rows)| (Columns::new(header), rows))
        .collect()
}
