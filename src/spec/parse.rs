//! Parse `.feature` files into the scenario AST: the file grammar finds the Gherkin structure, the
//! step grammar types each step.
//!
//! Both levels are in `grammar/scenario.pest`. `parse_feature` first reads the file line by line
//! (entry rule `file`, which accepts every line) and builds the Feature / Rule / Background /
//! Scenario / Examples structure; then it parses each step's text on its own (entry rule `step`).
//! Every problem of the file is collected, each with the span of the offending text and a hint.

use super::ast::{
    ActionCall, ArgExpr, Audience, Background, DocString, Examples, Feature, FieldMatch,
    KnowTarget, Literal, Name, Row, RuleBlock, Scenario, SlotPattern, Span, Spanned, Step,
    StepBody, StepKeyword, StepKind, Table, Tag,
};
use super::diag::{Problem, did_you_mean, line_col};
use crate::kernel::Face;
use pest::Parser as _;
use pest::error::InputLocation;
use pest::iterators::Pair;
use std::collections::{HashMap, HashSet};

mod grammar {
    //! The pest parser generated from `grammar/scenario.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/scenario.pest"]
    pub struct ScenarioParser;
}

use grammar::{Rule, ScenarioParser};

// ───────────────────────────── API ─────────────────────────────

/// Parse a whole file. Collects every problem in the file (not only the first), in file order.
pub fn parse_feature(src: &str) -> Result<Feature, Vec<Problem>> {
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
            return Err(vec![Problem::new(
                "this file cannot be read as a scenario file",
                Span::new(pos, pos),
                "here",
            )]);
        }
    }
    builder.finish()
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
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for placeholder in placeholders(template, 0) {
        let column = header.cells.iter().position(|c| c.node == placeholder.node);
        if let Some(cell) = column.and_then(|i| row.cells.get(i)) {
            out.push_str(&template[last..placeholder.span.start]);
            out.push_str(&cell.node);
            last = placeholder.span.end;
        }
    }
    out.push_str(&template[last..]);
    out
}

// ─────────────────────────── file level ───────────────────────────

/// The keyword lines of the structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Header {
    Feature,
    Rule,
    Background,
    Scenario,
    Outline,
    Examples,
}

/// Header keywords in lower case (for did-you-mean), with what they are and how to write them.
const HEADER_WORDS: &[(&str, Header, &str)] = &[
    ("feature", Header::Feature, "Feature:"),
    ("rule", Header::Rule, "Rule:"),
    ("background", Header::Background, "Background:"),
    ("scenario", Header::Scenario, "Scenario:"),
    ("example", Header::Scenario, "Example:"),
    ("scenario outline", Header::Outline, "Scenario Outline:"),
    ("scenario template", Header::Outline, "Scenario Template:"),
    ("examples", Header::Examples, "Examples:"),
    ("scenarios", Header::Examples, "Scenarios:"),
];

/// Step keywords in lower case (for did-you-mean).
const STEP_WORDS: &[(&str, StepKeyword)] = &[
    ("given", StepKeyword::Given),
    ("when", StepKeyword::When),
    ("then", StepKeyword::Then),
    ("and", StepKeyword::And),
    ("but", StepKeyword::But),
];

const TAG_PLACES: &str =
    "tags go on `Feature:`, `Rule:`, `Scenario:`, `Scenario Outline:` and `Examples:` lines";

/// Where the steps of the current line go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// After `Feature:` or `Rule:`, before a Background or Scenario.
    None,
    Background,
    Scenario,
    /// Rows go to the last `Examples:` of the current scenario.
    Examples,
    /// A second Background: its steps are checked and dropped.
    Discard,
    /// An `Examples:` that belongs nowhere: its rows are dropped.
    DiscardExamples,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Feature,
    Rule(usize),
}

/// Builds the structure from the file's lines, then checks every step.
struct Builder<'s> {
    src: &'s str,
    problems: Vec<Problem>,
    feature: Option<Feature>,
    /// The feature was made up to go on after a missing `Feature:` line.
    implicit_feature: bool,
    pending_tags: Vec<Tag>,
    container: Container,
    section: Section,
    /// Free lines are description text of the current Feature or Rule.
    description: bool,
    /// A table row or doc string may still attach to the last step.
    attach: bool,
    discarded: Vec<Step>,
    /// Steps (by span start) whose kind could not be resolved (`And` as first step).
    unknown_kind: HashSet<usize>,
    /// The span of each step's keyword as written, by step span start.
    keyword_spans: HashMap<usize, Span>,
    /// For each doc string (by span start), content offset to file offset of each content line.
    doc_maps: HashMap<usize, Vec<(usize, usize)>>,
    /// Doc strings (by span start) that are never closed: their content is not checked.
    broken_docs: HashSet<usize>,
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

/// The span of a pair's text without trailing spaces.
fn trimmed_span_of(pair: &Pair<'_, Rule>) -> Span {
    let start = pair.as_span().start();
    Span::new(start, start + pair.as_str().trim_end().len())
}

fn line_start(src: &str, pos: usize) -> usize {
    src[..pos.min(src.len())].rfind('\n').map_or(0, |i| i + 1)
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

impl<'s> Builder<'s> {
    fn new(src: &'s str) -> Builder<'s> {
        Builder {
            src,
            problems: Vec::new(),
            feature: None,
            implicit_feature: false,
            pending_tags: Vec::new(),
            container: Container::Feature,
            section: Section::None,
            description: false,
            attach: false,
            discarded: Vec::new(),
            unknown_kind: HashSet::new(),
            keyword_spans: HashMap::new(),
            doc_maps: HashMap::new(),
            broken_docs: HashSet::new(),
        }
    }

    fn problem(
        &mut self,
        message: impl Into<String>,
        span: Span,
        label: &str,
        help: impl Into<String>,
    ) {
        self.problems
            .push(Problem::new(message, span, label).with_help(Some(help.into())));
    }

    fn line(&mut self, pair: Pair<'s, Rule>) {
        match pair.as_rule() {
            Rule::tags_line => self.tags_line(pair),
            Rule::feature_line => self.header_pair(Header::Feature, pair),
            Rule::rule_line => self.header_pair(Header::Rule, pair),
            Rule::background_line => self.header_pair(Header::Background, pair),
            Rule::scenario_line => self.header_pair(Header::Scenario, pair),
            Rule::outline_line => self.header_pair(Header::Outline, pair),
            Rule::examples_line => self.header_pair(Header::Examples, pair),
            Rule::step_line => self.step_line(pair),
            Rule::table_row => self.table_row(pair),
            Rule::doc_string => self.doc_string(pair),
            Rule::doc_unclosed => self.doc_unclosed(pair),
            Rule::other_line => self.other_line(pair),
            // Comments and the end of the file change nothing; blank lines make no pair.
            _ => {}
        }
    }

    // ── containers ──

    fn rule_block(&mut self) -> Option<&mut RuleBlock> {
        match self.container {
            Container::Rule(i) => self.feature.as_mut()?.rules.get_mut(i),
            Container::Feature => None,
        }
    }

    fn background_mut(&mut self) -> Option<&mut Option<Background>> {
        match self.container {
            Container::Feature => Some(&mut self.feature.as_mut()?.background),
            Container::Rule(_) => Some(&mut self.rule_block()?.background),
        }
    }

    fn scenarios_mut(&mut self) -> Option<&mut Vec<Scenario>> {
        match self.container {
            Container::Feature => Some(&mut self.feature.as_mut()?.scenarios),
            Container::Rule(_) => Some(&mut self.rule_block()?.scenarios),
        }
    }

    fn steps_mut(&mut self) -> Option<&mut Vec<Step>> {
        match self.section {
            Section::Discard => Some(&mut self.discarded),
            Section::Background => Some(&mut self.background_mut()?.as_mut()?.steps),
            Section::Scenario => Some(&mut self.scenarios_mut()?.last_mut()?.steps),
            _ => None,
        }
    }

    fn add_description(&mut self, text: &str) {
        let target = match self.container {
            Container::Feature => self.feature.as_mut().map(|f| &mut f.description),
            Container::Rule(_) => self.rule_block().map(|r| &mut r.description),
        };
        if let Some(description) = target {
            if !description.is_empty() {
                description.push('\n');
            }
            description.push_str(text);
        }
    }

    /// Report tags that were written before something that takes none.
    fn refuse_tags(&mut self, what: &str) {
        if let Some(first) = self.pending_tags.first() {
            let span = first.span;
            self.problem(
                format!("tags cannot be put on {what}"),
                span,
                "these tags",
                TAG_PLACES,
            );
            self.pending_tags.clear();
        }
    }

    /// Make sure there is a feature to add to; report a missing `Feature:` once.
    fn ensure_feature(&mut self, at: Span) {
        if self.feature.is_none() {
            self.problem(
                "missing `Feature:`",
                at,
                "before this",
                "a scenario file starts with `Feature: <name>` (after optional `@tags` and `#` comments)",
            );
            self.feature = Some(Feature {
                tags: Vec::new(),
                name: String::new(),
                span: Span::default(),
                description: String::new(),
                background: None,
                scenarios: Vec::new(),
                rules: Vec::new(),
            });
            self.implicit_feature = true;
            self.container = Container::Feature;
        }
    }

    // ── lines ──

    fn tags_line(&mut self, pair: Pair<'s, Rule>) {
        self.description = false;
        self.attach = false;
        for tag in pair.into_inner().filter(|p| p.as_rule() == Rule::tag) {
            self.pending_tags.push(Tag {
                name: tag.as_str()[1..].to_string(),
                span: span_of(&tag),
            });
        }
    }

    fn header_pair(&mut self, header: Header, pair: Pair<'s, Rule>) {
        let line = trimmed_span_of(&pair);
        let mut keyword = Span::new(line.start, line.start);
        let mut title = "";
        for inner in pair.into_inner() {
            match inner.as_rule() {
                Rule::colon => keyword.end = inner.as_span().end(),
                Rule::title => title = inner.as_str().trim(),
                _ => {}
            }
        }
        self.header(header, line, keyword, title);
    }

    fn header(&mut self, header: Header, line: Span, keyword: Span, title: &str) {
        self.attach = false;
        self.description = false;
        match header {
            Header::Feature => {
                let tags = std::mem::take(&mut self.pending_tags);
                match &mut self.feature {
                    Some(feature) if self.implicit_feature => {
                        feature.tags = tags;
                        feature.name = title.to_string();
                        feature.span = line;
                        self.implicit_feature = false;
                    }
                    Some(_) => {
                        self.problem(
                            "a second `Feature:`",
                            keyword,
                            "second Feature",
                            "a file holds one Feature: split the file in two, or group scenarios with `Rule:`",
                        );
                        self.section = Section::None;
                        return;
                    }
                    None => {
                        self.feature = Some(Feature {
                            tags,
                            name: title.to_string(),
                            span: line,
                            description: String::new(),
                            background: None,
                            scenarios: Vec::new(),
                            rules: Vec::new(),
                        });
                    }
                }
                self.container = Container::Feature;
                self.section = Section::None;
                self.description = true;
            }
            Header::Rule => {
                self.ensure_feature(keyword);
                let tags = std::mem::take(&mut self.pending_tags);
                if let Some(feature) = &mut self.feature {
                    feature.rules.push(RuleBlock {
                        tags,
                        name: title.to_string(),
                        span: line,
                        description: String::new(),
                        background: None,
                        scenarios: Vec::new(),
                    });
                    self.container = Container::Rule(feature.rules.len() - 1);
                }
                self.section = Section::None;
                self.description = true;
            }
            Header::Background => {
                self.refuse_tags("`Background:`");
                self.ensure_feature(keyword);
                let has_scenarios = self.scenarios_mut().is_some_and(|s| !s.is_empty());
                let slot = self.background_mut();
                if slot.as_ref().is_some_and(|b| b.is_some()) {
                    let place = match self.container {
                        Container::Feature => "a Feature",
                        Container::Rule(_) => "a Rule",
                    };
                    self.problem(
                        "a second `Background:`",
                        keyword,
                        "second Background",
                        format!(
                            "{place} has at most one Background: put these steps in the first one"
                        ),
                    );
                    self.discarded.clear();
                    self.section = Section::Discard;
                    return;
                }
                if let Some(slot) = slot {
                    *slot = Some(Background {
                        span: line,
                        steps: Vec::new(),
                    });
                }
                self.section = Section::Background;
                if has_scenarios {
                    self.problem(
                        "`Background:` after a scenario",
                        keyword,
                        "too late",
                        "move the Background above the first `Scenario:` of its Feature or Rule",
                    );
                }
            }
            Header::Scenario | Header::Outline => {
                self.ensure_feature(keyword);
                let tags = std::mem::take(&mut self.pending_tags);
                if let Some(scenarios) = self.scenarios_mut() {
                    scenarios.push(Scenario {
                        tags,
                        name: title.to_string(),
                        span: line,
                        steps: Vec::new(),
                        examples: Vec::new(),
                        is_outline: header == Header::Outline,
                    });
                }
                self.section = Section::Scenario;
            }
            Header::Examples => {
                let tags = std::mem::take(&mut self.pending_tags);
                let in_scenario = matches!(self.section, Section::Scenario | Section::Examples);
                let scenario = if in_scenario {
                    self.scenarios_mut().and_then(|s| s.last_mut())
                } else {
                    None
                };
                match scenario {
                    Some(scenario) if scenario.is_outline => {
                        scenario.examples.push(Examples {
                            tags,
                            name: title.to_string(),
                            span: line,
                            table: Table {
                                span: Span::new(line.end, line.end),
                                rows: Vec::new(),
                            },
                        });
                        self.section = Section::Examples;
                    }
                    Some(_) => {
                        self.problem(
                            "`Examples:` in a plain `Scenario:`",
                            keyword,
                            "no outline",
                            "write `Scenario Outline:` instead of `Scenario:` to run the scenario once per example",
                        );
                        self.section = Section::DiscardExamples;
                    }
                    None => {
                        self.problem(
                            "`Examples:` outside a `Scenario Outline:`",
                            keyword,
                            "no outline",
                            "put `Examples:` after the steps of a `Scenario Outline:`",
                        );
                        self.section = Section::DiscardExamples;
                    }
                }
            }
        }
    }

    fn step_line(&mut self, pair: Pair<'s, Rule>) {
        let line = trimmed_span_of(&pair);
        let mut keyword = (StepKeyword::Given, Span::new(line.start, line.start));
        let mut text = ("", Span::new(line.end, line.end));
        for inner in pair.into_inner() {
            match inner.as_rule() {
                Rule::step_keyword => {
                    let word = match inner.as_str() {
                        "When" => StepKeyword::When,
                        "Then" => StepKeyword::Then,
                        "And" => StepKeyword::And,
                        "But" => StepKeyword::But,
                        _ => StepKeyword::Given,
                    };
                    keyword = (word, span_of(&inner));
                    text.1 = Span::new(keyword.1.end, keyword.1.end);
                }
                Rule::step_text => text = (inner.as_str().trim_end(), trimmed_span_of(&inner)),
                _ => {}
            }
        }
        self.step(keyword.0, keyword.1, text.0, text.1, line);
    }

    fn step(
        &mut self,
        keyword: StepKeyword,
        keyword_span: Span,
        text: &str,
        text_span: Span,
        line: Span,
    ) {
        self.refuse_tags("a step");
        self.description = false;
        self.attach = false;
        match self.section {
            Section::Background | Section::Scenario | Section::Discard => {}
            Section::Examples | Section::DiscardExamples => {
                self.problem(
                    "step after `Examples:`",
                    keyword_span,
                    "too late",
                    "the steps of a Scenario Outline come before its `Examples:`",
                );
                return;
            }
            Section::None => {
                self.problem(
                    "step outside a scenario",
                    keyword_span,
                    "not in a scenario",
                    "put steps under a `Scenario:`, `Scenario Outline:` or `Background:` line",
                );
                return;
            }
        }
        let previous = self
            .steps_mut()
            .and_then(|steps| steps.last().map(|s| s.kind));
        let kind = match (keyword, previous) {
            (StepKeyword::Given, _) => Some(StepKind::Given),
            (StepKeyword::When, _) => Some(StepKind::When),
            (StepKeyword::Then, _) => Some(StepKind::Then),
            (StepKeyword::And | StepKeyword::But, previous) => previous,
        };
        if kind.is_none() {
            let where_ = if self.section == Section::Scenario {
                "a scenario"
            } else {
                "a Background"
            };
            self.problem(
                format!("`{}` cannot start {where_}", keyword_word(keyword)),
                keyword_span,
                "nothing to continue",
                "the first step says what it is: start with `Given`, `When` or `Then`",
            );
            self.unknown_kind.insert(line.start);
        }
        self.keyword_spans.insert(line.start, keyword_span);
        let step = Step {
            keyword,
            kind: kind.unwrap_or(StepKind::Given),
            span: line,
            text: text.to_string(),
            text_span,
            body: None,
            table: None,
            doc: None,
        };
        if let Some(steps) = self.steps_mut() {
            steps.push(step);
            self.attach = true;
        }
    }

    fn table_row(&mut self, pair: Pair<'s, Rule>) {
        self.refuse_tags("a table row");
        self.description = false;
        let row_span = trimmed_span_of(&pair);
        let mut cells = Vec::new();
        for inner in pair.into_inner() {
            match inner.as_rule() {
                Rule::cell => cells.push(cell_of(&inner)),
                Rule::unclosed_cell => {
                    let cell = cell_of(&inner);
                    self.problem(
                        "this table row is not closed",
                        cell.span,
                        "no `|` after this",
                        "end every row with `|`",
                    );
                    cells.push(cell);
                }
                _ => {}
            }
        }
        let row = Row {
            span: row_span,
            cells,
        };
        let table = match self.section {
            Section::DiscardExamples => return,
            Section::Examples => self
                .scenarios_mut()
                .and_then(|s| s.last_mut())
                .and_then(|s| s.examples.last_mut())
                .map(|e| &mut e.table),
            _ if self.attach => {
                let step = self.steps_mut().and_then(|s| s.last_mut());
                match step {
                    Some(step) if step.doc.is_some() => None,
                    Some(step) => Some(step.table.get_or_insert(Table {
                        span: row.span,
                        rows: Vec::new(),
                    })),
                    None => None,
                }
            }
            _ => None,
        };
        let Some(table) = table else {
            self.problem(
                "table row outside a step or `Examples:`",
                row.span,
                "belongs to nothing",
                "a table goes right after the step it belongs to, or after an `Examples:` line",
            );
            return;
        };
        let width = table.rows.first().map(|r| r.cells.len());
        if table.rows.is_empty() {
            table.span.start = row.span.start;
        }
        table.span.end = row.span.end;
        let count = row.cells.len();
        table.rows.push(row);
        if let Some(width) = width.filter(|&w| w != count) {
            self.problem(
                format!("this row has {count} cells, but the first row of its table has {width}"),
                row_span,
                "wrong width",
                "every row of a table has the same number of cells",
            );
        }
    }

    fn doc_string(&mut self, pair: Pair<'s, Rule>) {
        self.refuse_tags("a doc string");
        self.description = false;
        let mut quotes = Vec::new();
        let mut lines = Vec::new();
        for inner in pair.into_inner() {
            match inner.as_rule() {
                Rule::triple_quote => quotes.push(span_of(&inner)),
                Rule::doc_line => lines.push(inner),
                _ => {}
            }
        }
        let (Some(open), Some(close)) = (quotes.first().copied(), quotes.last().copied()) else {
            return;
        };
        let indent = open.start - line_start(self.src, open.start);
        let mut content = String::new();
        let mut map = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                content.push('\n');
            }
            let text = line.as_str();
            let strip = text
                .bytes()
                .take(indent)
                .take_while(|b| *b == b' ' || *b == b'\t')
                .count();
            map.push((content.len(), line.as_span().start() + strip));
            content.push_str(&text[strip..].replace("\\\"\\\"\\\"", "\"\"\""));
        }
        let doc = DocString {
            span: Span::new(open.start, close.end),
            content,
        };
        let attach = self.attach;
        self.attach = false;
        let step = if attach {
            self.steps_mut().and_then(|s| s.last_mut())
        } else {
            None
        };
        match step {
            Some(step) if step.doc.is_none() && step.table.is_none() => {
                let start = doc.span.start;
                step.doc = Some(doc);
                self.doc_maps.insert(start, map);
            }
            Some(_) => self.problem(
                "a second table or doc string for one step",
                open,
                "one too many",
                "a step takes one table or one doc string",
            ),
            None => self.problem(
                "doc string outside a step",
                open,
                "belongs to nothing",
                "a doc string goes right after the step it belongs to",
            ),
        }
    }

    fn doc_unclosed(&mut self, pair: Pair<'s, Rule>) {
        let open = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::triple_quote)
            .map_or(Span::default(), |p| span_of(&p));
        self.problem(
            "this doc string is never closed",
            open,
            "opened here",
            "close it with `\"\"\"` on a line of its own",
        );
        // The step it follows has a doc string, if a broken one: no second problem about it.
        let attach = self.attach;
        if let Some(step) = self.steps_mut().and_then(|s| s.last_mut())
            && attach
            && step.doc.is_none()
            && step.table.is_none()
        {
            step.doc = Some(DocString {
                span: open,
                content: String::new(),
            });
            self.broken_docs.insert(open.start);
        }
        self.attach = false;
    }

    fn other_line(&mut self, pair: Pair<'s, Rule>) {
        let line = trimmed_span_of(&pair);
        let text = pair.as_str().trim_end();
        if text.starts_with('@') {
            self.bad_tags(text, line.start);
            return;
        }
        // `Scenaro: …`: a misspelled header keyword with its colon.
        if let Some(colon) = text.find(':')
            && let head = &text[..colon]
            && !head.trim().is_empty()
            && head.split_whitespace().count() <= 2
            && let Some((header, written)) = closest_header(head)
        {
            let keyword = Span::new(line.start, line.start + colon + 1);
            self.problem(
                format!("unknown keyword `{}:`", head.trim_end()),
                keyword,
                "unknown keyword",
                format!("did you mean `{written}`?"),
            );
            self.header(header, line, keyword, text[colon + 1..].trim());
            return;
        }
        if self.description {
            self.add_description(text);
            return;
        }
        self.attach = false;
        let first = text.split_whitespace().next().unwrap_or(text);
        let first_span = Span::new(line.start, line.start + first.len());
        let bare = first.trim_end_matches(':');
        // `ann holds 7S`: a step without its keyword.
        if matches!(
            self.section,
            Section::Background | Section::Scenario | Section::Discard
        ) && ScenarioParser::parse(Rule::step, text).is_ok()
        {
            self.problem(
                "step without a keyword",
                line,
                "no keyword",
                format!(
                    "start the step with `Given`, `When`, `Then`, `And` or `But`: `And {text}`"
                ),
            );
            return;
        }
        // `Givn ann …`: a misspelled step keyword.
        if let Some(keyword) = closest_step_keyword(bare) {
            let word = keyword_word(keyword);
            let help = if bare == word {
                format!("write `{word}` without a colon")
            } else {
                format!("did you mean `{word}`?")
            };
            self.problem(
                format!("unknown keyword `{first}`"),
                first_span,
                "unknown keyword",
                help,
            );
            let rest = text[first.len()..].trim_start();
            let rest_start = line.start + (text.len() - rest.len());
            let text_span = Span::new(rest_start, rest_start + rest.len());
            self.step(keyword, first_span, rest, text_span, line);
            return;
        }
        // `Scenario foo`: a header keyword without its colon.
        if let Some((header, written)) = closest_header(bare) {
            self.problem(
                format!("unknown keyword `{first}`"),
                first_span,
                "unknown keyword",
                format!("did you mean `{written}`?"),
            );
            self.header(header, line, first_span, text[first.len()..].trim());
            return;
        }
        match self.section {
            Section::Background | Section::Scenario | Section::Discard => self.problem(
                "this line is not a step",
                line,
                "not a step",
                "a step starts with `Given`, `When`, `Then`, `And` or `But`",
            ),
            Section::Examples | Section::DiscardExamples => self.problem(
                "this line is not a table row",
                line,
                "not a row",
                "an `Examples:` table has rows like `| ann | 7S |`",
            ),
            Section::None if self.feature.is_none() => self.problem(
                "unexpected text before `Feature:`",
                line,
                "unexpected",
                "a scenario file starts with `Feature: <name>`; a comment line starts with `#`",
            ),
            Section::None => self.problem(
                "unexpected text",
                line,
                "unexpected",
                "expected `Rule:`, `Background:`, `Scenario:`, `Scenario Outline:`, `@tags` or a `#` comment",
            ),
        }
    }

    /// A line that starts with `@` but is not a list of tags.
    fn bad_tags(&mut self, text: &str, start: usize) {
        self.description = false;
        self.attach = false;
        let mut offset = 0;
        let mut reported = false;
        for word in text.split_whitespace() {
            let at = offset + text[offset..].find(word).unwrap_or(0);
            offset = at + word.len();
            let span = Span::new(start + at, start + at + word.len());
            if word.starts_with('#') {
                break;
            }
            let name = word.strip_prefix('@');
            match name {
                Some(name) if !name.is_empty() && !name.contains('@') => {
                    self.pending_tags.push(Tag {
                        name: name.to_string(),
                        span,
                    });
                }
                _ if reported => {}
                Some("") => {
                    reported = true;
                    self.problem(
                        "`@` without a tag name",
                        span,
                        "empty tag",
                        "write the name right after `@`: `@slow`",
                    );
                }
                Some(_) => {
                    reported = true;
                    self.problem(
                        format!("`{word}` is not one tag"),
                        span,
                        "not a tag",
                        "separate tags with spaces: `@a @b`",
                    );
                }
                None => {
                    reported = true;
                    let help = if closest_header(word.trim_end_matches(':')).is_some() {
                        format!("put `{word}` on its own line, after the tags")
                    } else {
                        format!("every tag starts with `@`: `@{word}`")
                    };
                    self.problem(format!("`{word}` is not a tag"), span, "not a tag", help);
                }
            }
        }
    }

    // ── the end ──

    fn finish(mut self) -> Result<Feature, Vec<Problem>> {
        if let Some(first) = self.pending_tags.first() {
            let span = first.span;
            self.problem(
                "these tags are not followed by anything they could tag",
                span,
                "lone tags",
                TAG_PLACES,
            );
        }
        let feature = self.feature.take();
        let mut checker = Checker {
            src: self.src,
            problems: std::mem::take(&mut self.problems),
            unknown_kind: &self.unknown_kind,
            keyword_spans: &self.keyword_spans,
            doc_maps: &self.doc_maps,
            broken_docs: &self.broken_docs,
        };
        let mut discarded = std::mem::take(&mut self.discarded);
        checker.steps(&mut discarded, None);
        let Some(mut feature) = feature else {
            let mut problems = checker.problems;
            problems.push(
                Problem::new("missing `Feature:`", Span::new(0, 0), "no Feature").with_help(Some(
                    "a scenario file starts with `Feature: <name>` (after optional `@tags` and `#` comments)".into(),
                )),
            );
            return Err(sorted(problems));
        };
        checker.container(&mut feature.background, &mut feature.scenarios);
        for rule in &mut feature.rules {
            checker.container(&mut rule.background, &mut rule.scenarios);
        }
        if checker.problems.is_empty() {
            Ok(feature)
        } else {
            Err(sorted(checker.problems))
        }
    }
}

/// Problems in file order, without duplicates.
fn sorted(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| (p.span.start, p.span.end));
    problems.dedup();
    problems
}

/// A table cell: text trimmed and unescaped, span of the trimmed text.
fn cell_of(pair: &Pair<'_, Rule>) -> Spanned<String> {
    let raw = pair.as_str();
    let trimmed = raw.trim();
    let lead = raw.len() - raw.trim_start().len();
    let start = pair.as_span().start() + lead;
    let mut text = String::with_capacity(trimmed.len());
    let mut chars = trimmed.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => text.push('\n'),
                Some(other) => text.push(other),
                None => text.push('\\'),
            }
        } else {
            text.push(c);
        }
    }
    Spanned::new(text, Span::new(start, start + trimmed.len()))
}

/// `word` itself when it is a candidate, else the candidate it most likely misspells.
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    candidates
        .clone()
        .find(|c| *c == word)
        .or_else(|| did_you_mean(word, candidates))
}

/// The header keyword a misspelled word most likely means, and how to write it.
fn closest_header(word: &str) -> Option<(Header, &'static str)> {
    let lower = word.trim().to_lowercase();
    let best = closest(&lower, HEADER_WORDS.iter().map(|(w, _, _)| *w))?;
    HEADER_WORDS
        .iter()
        .find(|(w, _, _)| *w == best)
        .map(|(_, header, written)| (*header, *written))
}

/// The step keyword a misspelled word most likely means.
fn closest_step_keyword(word: &str) -> Option<StepKeyword> {
    let lower = word.to_lowercase();
    let best = closest(&lower, STEP_WORDS.iter().map(|(w, _)| *w)).or_else(|| {
        // Short words: one typo (`Adn`, `Thn`) is too much for Jaro-Winkler.
        STEP_WORDS
            .iter()
            .map(|(w, _)| *w)
            .find(|w| lower.chars().count() >= 3 && strsim::damerau_levenshtein(&lower, w) <= 1)
    })?;
    STEP_WORDS.iter().find(|(w, _)| *w == best).map(|(_, k)| *k)
}

// ─────────────────────────── step checks ───────────────────────────

/// Checks every step once the structure is known (outlines need their Examples).
struct Checker<'a> {
    src: &'a str,
    problems: Vec<Problem>,
    unknown_kind: &'a HashSet<usize>,
    keyword_spans: &'a HashMap<usize, Span>,
    doc_maps: &'a HashMap<usize, Vec<(usize, usize)>>,
    broken_docs: &'a HashSet<usize>,
}

impl Checker<'_> {
    fn container(&mut self, background: &mut Option<Background>, scenarios: &mut [Scenario]) {
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

    fn steps(&mut self, steps: &mut [Step], outline: Option<&[Examples]>) {
        for step in steps {
            self.step(step, outline);
        }
    }

    fn step(&mut self, step: &mut Step, outline: Option<&[Examples]>) {
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

/// The table and doc string of a step, when the caller has them.
#[derive(Clone, Copy)]
struct Attachments<'a> {
    table: Option<&'a Table>,
    doc: Option<&'a DocString>,
    /// Content offset to file offset for each content line of `doc`, when known.
    doc_map: Option<&'a [(usize, usize)]>,
    /// Whether to check the JSON of a `receives:` doc string (not in an outline template).
    check_json: bool,
}

/// One step to check.
struct StepInput<'a> {
    text: &'a str,
    offset: usize,
    /// `None` when it could not be resolved (an `And` as first step): no kind check then.
    kind: Option<StepKind>,
    /// The keyword as written and its span, for messages about the kind.
    keyword: Option<(StepKeyword, Span)>,
    attachments: Option<Attachments<'a>>,
}

impl<'a> StepInput<'a> {
    /// The same step with another text and doc string (an outline step after substitution).
    fn with<'b>(&self, text: &'b str, doc: Option<&'b DocString>, check_json: bool) -> StepInput<'b>
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

/// Parse a step's text, then check its kind and its table or doc string.
fn check_step(input: &StepInput<'_>) -> Result<StepBody, Vec<Problem>> {
    let text = input.text.trim_end();
    let text_span = Span::new(input.offset, input.offset + text.len());
    if text.trim_start().is_empty() {
        let span = input.keyword.map_or(text_span, |(_, span)| span);
        return Err(vec![Problem::new("empty step", span, "nothing after the keyword").with_help(Some(
            "write what the step says after the keyword, such as `Given a cambia game with players ann, bob`".into(),
        ))]);
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
        | StepBody::BotSeat { .. }
        | StepBody::Did { .. } => &[Given],
        StepBody::Holds { .. }
        | StepBody::DrawPileHas(_)
        | StepBody::DiscardPileIs(_)
        | StepBody::Turn(_)
        | StepBody::Knows { .. } => &[Given, Then],
        StepBody::Does { .. }
        | StepBody::BotActs { .. }
        | StepBody::TimePasses { .. }
        | StepBody::TimeRunsOut => &[When],
        StepBody::HoldsCount { .. }
        | StepBody::SlotIs { .. }
        | StepBody::DrawPileTop(_)
        | StepBody::DiscardPileTop(_)
        | StepBody::DoesNotKnow { .. }
        | StepBody::PhaseIs(_)
        | StepBody::Rejected { .. }
        | StepBody::ScoreIs { .. }
        | StepBody::Win(_)
        | StepBody::Draw
        | StepBody::Over
        | StepBody::NotOver
        | StepBody::Property { .. }
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
        StepBody::DrawPileHas(_) => "the draw pile has <n> cards",
        StepBody::DrawPileTop(_) => "the draw pile top is <card>",
        StepBody::DiscardPileIs(_) => "the discard pile is <card>, <card>, …",
        StepBody::DiscardPileTop(_) => "the discard pile top is <card>",
        StepBody::Turn(_) => "it is <player>'s turn",
        StepBody::Knows { .. } => "<player> knows <card or slot>",
        StepBody::DoesNotKnow { .. } => "<player> does not know <card or slot>",
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

const HOUSE_VALUE_HELP: &str =
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
fn map_doc_offset(doc: &DocString, doc_map: Option<&[(usize, usize)]>, offset: usize) -> usize {
    doc_map
        .and_then(|map| map.iter().rev().find(|(content, _)| *content <= offset))
        .map_or(doc.span.start, |(content, file)| file + (offset - content))
}

/// The pest error position.
fn error_pos(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    }
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

// ─────────────────────────── step bodies ───────────────────────────

/// Turns the pairs of one parsed step into a `StepBody`, collecting value problems.
struct StepCx {
    offset: usize,
    problems: Vec<Problem>,
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

fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, "0"));
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

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
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        Span::new(
            self.offset + pair.as_span().start(),
            self.offset + pair.as_span().end(),
        )
    }

    fn name(&self, pair: &Pair<'_, Rule>) -> Name {
        Spanned::new(pair.as_str().to_string(), self.span(pair))
    }

    fn players(&self, pair: Pair<'_, Rule>) -> Vec<Name> {
        kids(pair)
            .iter()
            .filter(|p| p.as_rule() == Rule::player)
            .map(|p| self.name(p))
            .collect()
    }

    fn card_problem(&mut self, text: &str, span: Span) {
        self.problems.push(
            Problem::new(format!("`{text}` is not a card"), span, "not a card")
                .with_help(Some(card_hint(text))),
        );
    }

    fn face(&mut self, pair: &Pair<'_, Rule>) -> Option<Face> {
        match pair.as_str().parse::<Face>() {
            Ok(face) => Some(face),
            Err(_) => {
                self.card_problem(pair.as_str(), self.span(pair));
                None
            }
        }
    }

    fn number<T: std::str::FromStr>(&mut self, pair: &Pair<'_, Rule>) -> Option<T> {
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
    fn slots(&mut self, pair: Pair<'_, Rule>) -> Vec<Spanned<SlotPattern>> {
        let mut out = Vec::new();
        for item in kids(pair) {
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
    fn pile(&mut self, pair: Pair<'_, Rule>) -> Vec<Spanned<Face>> {
        let mut out = Vec::new();
        for item in kids(pair) {
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
    fn literal(&mut self, pair: Pair<'_, Rule>, house: bool) -> Option<Literal> {
        let text = pair.as_str();
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::boolean => Some(Literal::Bool(text == "true")),
            Rule::number => Some(Literal::Number(text.to_string())),
            Rule::text => Some(Literal::Text(unquote(pair))),
            Rule::list => {
                let mut items = Vec::new();
                let mut ok = true;
                for item in kids(pair) {
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

    fn spanned_literal(&mut self, pair: Pair<'_, Rule>, house: bool) -> Option<Spanned<Literal>> {
        let span = self.span(&pair);
        self.literal(pair, house).map(|l| Spanned::new(l, span))
    }

    fn slot_ref(&mut self, pair: Pair<'_, Rule>) -> Option<(Option<Name>, u32)> {
        let mut owner = None;
        let mut slot = None;
        for kid in kids(pair) {
            match kid.as_rule() {
                Rule::player => owner = Some(self.name(&kid)),
                _ => slot = self.number(&kid),
            }
        }
        Some((owner, slot?))
    }

    fn know_target(&mut self, pair: Pair<'_, Rule>, subject: &Name) -> Option<KnowTarget> {
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

    fn action(&mut self, pair: Pair<'_, Rule>) -> Option<ActionCall> {
        let mut parts = kids(pair).into_iter();
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

    fn millis(&mut self, pair: &Pair<'_, Rule>) -> Option<u64> {
        let text = pair.as_str();
        let span = self.span(pair);
        if text.starts_with('-') {
            self.problems.push(
                Problem::new("time cannot run backwards", span, "negative")
                    .with_help(Some("write a number of seconds of 0 or more".into())),
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
        if millis.is_none() {
            self.problems.push(
                Problem::new(format!("`{text}` is too large"), span, "too large")
                    .with_help(Some("write a smaller number".into())),
            );
        }
        millis
    }

    /// The audience-independent part of a `sees` step.
    fn sees(&mut self, audience: Audience, rest: &[Pair<'_, Rule>]) -> Option<StepBody> {
        let (event, rest) = rest.split_first()?;
        let event = self.name(event);
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
                    let count = kids(part.clone())
                        .first()
                        .and_then(|n| self.number::<u32>(n));
                    if matches!(audience, Audience::NotPlayer(_)) {
                        self.problems.push(
                            Problem::new("`does not see` takes no count", self.span(part), "count")
                                .with_help(Some(
                                    "`does not see` means not even once: remove the count".into(),
                                )),
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

    fn body(&mut self, form: Pair<'_, Rule>) -> Option<StepBody> {
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
            (R::draw_pile_has, [n]) => StepBody::DrawPileHas(self.number(n)?),
            (R::draw_pile_is, [cards]) => StepBody::DrawPileIs(self.pile(cards.clone())),
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
            (R::only_sees, [player, rest @ ..]) => {
                self.sees(Audience::Only(self.name(player)), rest)?
            }
            (R::sees, [player, rest @ ..]) => {
                self.sees(Audience::Player(self.name(player)), rest)?
            }
            (R::does_not_see, [player, rest @ ..]) => {
                self.sees(Audience::NotPlayer(self.name(player)), rest)?
            }
            (R::slot_is, [player, slot, card]) => StepBody::SlotIs {
                player: self.name(player),
                slot: self.number(slot)?,
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
                count: self.number(n)?,
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
    fn property_name(&self, pair: &Pair<'_, Rule>) -> Spanned<String> {
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

// ─────────────────────────── did you mean ───────────────────────────

/// A human-readable step form, the words it is compared by, and the kinds it is written with.
struct Template {
    text: &'static str,
    /// Literal words; `*` is one value, `**` any number of words.
    pattern: &'static str,
    kinds: &'static [StepKind],
    /// A catch-all form (`the <property> is <value>`), suggested only when nothing fixed is close.
    general: bool,
}

const GIVEN: &[StepKind] = &[StepKind::Given];
const WHEN: &[StepKind] = &[StepKind::When];
const THEN: &[StepKind] = &[StepKind::Then];
const GIVEN_THEN: &[StepKind] = &[StepKind::Given, StepKind::Then];

const fn template(
    text: &'static str,
    pattern: &'static str,
    kinds: &'static [StepKind],
) -> Template {
    Template {
        text,
        pattern,
        kinds,
        general: false,
    }
}

/// Every step form, for "did you mean". Ties go to the earlier form.
const TEMPLATES: &[Template] = &[
    template(
        "a <variant> game with players <player>, <player>, …",
        "a * game with players **",
        GIVEN,
    ),
    template("the seed is <n>", "the seed is *", GIVEN),
    template(
        "the house rule <name> is <value>",
        "the house rule * is **",
        GIVEN,
    ),
    template("the house rules:", "the house rules :", GIVEN),
    template("<player> holds <card>, <card>, …", "* holds **", GIVEN_THEN),
    template("<player> holds <n> cards", "* holds * cards", THEN),
    template("<player>'s slot <n> is <card>", "* 's slot * is *", THEN),
    template(
        "the draw pile is <card>, <card>, …",
        "the draw pile is **",
        GIVEN,
    ),
    template(
        "the draw pile has <n> cards",
        "the draw pile has * cards",
        GIVEN_THEN,
    ),
    template(
        "the draw pile top is <card>",
        "the draw pile top is *",
        THEN,
    ),
    template(
        "the discard pile is <card>, <card>, …",
        "the discard pile is **",
        GIVEN_THEN,
    ),
    template(
        "the discard pile is empty",
        "the discard pile is empty",
        GIVEN_THEN,
    ),
    template(
        "the discard pile top is <card>",
        "the discard pile top is *",
        THEN,
    ),
    template("it is <player>'s turn", "it is * 's turn", GIVEN_THEN),
    template("<player> knows <card or slot>", "* knows **", GIVEN_THEN),
    template(
        "<player> does not know <card or slot>",
        "* does not know **",
        THEN,
    ),
    template("<player> did <action> [<args>]", "* did **", GIVEN),
    template("<player> does <action> [<args>]", "* does **", WHEN),
    template("<player> is a <level> bot", "* is a * bot", GIVEN),
    template("<player> is an <level> bot", "* is an * bot", GIVEN),
    template("<player>'s bot acts", "* 's bot acts", WHEN),
    template(
        "<player>'s bot chose <action> [<args>]",
        "* 's bot chose **",
        THEN,
    ),
    template("<player>'s bot waited", "* 's bot waited", THEN),
    template("<n> seconds pass", "* seconds pass", WHEN),
    template("time runs out", "time runs out", WHEN),
    template("the phase is <phase>", "the phase is *", THEN),
    template("the action is rejected", "the action is rejected", THEN),
    template(
        "the action is rejected with \"<text>\"",
        "the action is rejected with **",
        THEN,
    ),
    template("<player>'s score is <n>", "* 's score is *", THEN),
    template("<player> wins", "* wins", THEN),
    template("<player> and <player> win", "* and ** win", THEN),
    template("the game is a draw", "the game is a draw", THEN),
    template("the game is over", "the game is over", THEN),
    template("the game is not over", "the game is not over", THEN),
    template(
        "everyone sees <event> [with <field> <value>] [<n> times]",
        "everyone sees **",
        THEN,
    ),
    template(
        "only <player> sees <event> [with <field> <value>] [<n> times]",
        "only * sees **",
        THEN,
    ),
    template(
        "<player> sees <event> [with <field> <value>] [<n> times]",
        "* sees **",
        THEN,
    ),
    template(
        "<player> does not see <event> [with <field> <value>]",
        "* does not see **",
        THEN,
    ),
    template("<player> receives:", "* receives :", THEN),
    Template {
        text: "<player>'s <property> is <value>",
        pattern: "* 's ** is **",
        kinds: THEN,
        general: true,
    },
    Template {
        text: "the <property> is <value>",
        pattern: "the ** is **",
        kinds: THEN,
        general: true,
    },
];

/// One word of a step for comparing with templates: lower case, with its byte range in the text.
struct Word {
    text: String,
    start: usize,
    end: usize,
}

/// The words of a step for comparing with templates: commas dropped, `'s` and a final `:` split off.
fn step_words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut from = 0;
    for raw in text.split_whitespace() {
        let at = from + text[from..].find(raw).unwrap_or(0);
        from = at + raw.len();
        let lead = raw.len() - raw.trim_start_matches(',').len();
        let mut word = raw.trim_matches(',');
        let start = at + lead;
        let colon = word.ends_with(':');
        if colon {
            word = &word[..word.len() - 1];
        }
        let stem = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("\u{2019}s"))
            .filter(|s| !s.is_empty());
        let mut push = |text: &str, start: usize| {
            words.push(Word {
                text: text.to_lowercase(),
                start,
                end: start + text.len(),
            });
        };
        match stem {
            Some(stem) => {
                push(stem, start);
                push(&word[stem.len()..], start + stem.len());
            }
            None if !word.is_empty() => push(word, start),
            None => {}
        }
        if colon {
            push(":", start + word.len());
        }
    }
    for word in &mut words {
        if word.text == "\u{2019}s" {
            word.text = "'s".to_string();
        }
    }
    words
}

/// Where a step first departs from a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Departure {
    /// At this word (misspelled, extra, or where a word is missing).
    Word(usize),
    /// A word is missing at the end.
    End,
}

/// How far the words of a step are from a template pattern, and where they first depart from
/// it: an edit distance where `*` takes one word, `**` any number, and a literal word costs by
/// how much it differs (less than nothing when it matches, so that the form whose words the step
/// uses most wins over a vaguer one).
fn template_cost(words: &[Word], pattern: &[&str]) -> (f64, Option<Departure>) {
    let (n, m) = (words.len(), pattern.len());
    // Each cell: cost, the cell it came from, and whether that move departed from the pattern.
    let mut cells = vec![vec![(f64::INFINITY, (0, 0), false); m + 1]; n + 1];
    cells[0][0].0 = 0.0;
    for i in 0..=n {
        for j in 0..=m {
            let here = cells[i][j].0;
            if here.is_infinite() {
                continue;
            }
            let mut relax = |to: (usize, usize), cost: f64, departs: bool| {
                let cell = &mut cells[to.0][to.1];
                if here + cost < cell.0 {
                    *cell = (here + cost, (i, j), departs);
                }
            };
            let next = pattern.get(j).copied();
            if i < n {
                // An extra word, or one more word for `**`.
                match next {
                    Some("**") => relax((i + 1, j), 0.1, false),
                    _ => relax((i + 1, j), 1.0, true),
                }
            }
            match next {
                None => {}
                Some("**") => relax((i, j + 1), 0.0, false),
                Some(pat) => {
                    relax((i, j + 1), 1.0, true);
                    if i < n {
                        if pat == "*" {
                            relax((i + 1, j + 1), 0.2, false);
                        } else {
                            let word = words[i].text.as_str();
                            let similar = strsim::jaro_winkler(word, pat)
                                .max(strsim::normalized_damerau_levenshtein(word, pat));
                            let cost = if word == pat {
                                -0.5
                            } else if similar >= 0.75 {
                                2.0 * (1.0 - similar) - 0.2
                            } else {
                                2.0 * (1.0 - similar)
                            };
                            relax((i + 1, j + 1), cost, word != pat);
                        }
                    }
                }
            }
        }
    }
    // Walk back to find the first departure.
    let mut departure = None;
    let (mut i, mut j) = (n, m);
    while (i, j) != (0, 0) {
        let (_, from, departs) = cells[i][j];
        if departs {
            departure = Some(if from.0 < n {
                Departure::Word(from.0)
            } else {
                Departure::End
            });
        }
        if from == (i, j) {
            break;
        }
        (i, j) = from;
    }
    (cells[n][m].0, departure)
}

/// The step form closest to `text` (prefixed by its keyword when `kind` cannot use it), and where
/// the text first departs from it.
fn closest_template(text: &str, kind: Option<StepKind>) -> (Option<String>, Option<Span>) {
    let words = step_words(text);
    let mut best: Option<(&Template, f64, Option<Departure>)> = None;
    for template in TEMPLATES {
        let pattern: Vec<&str> = template.pattern.split_whitespace().collect();
        let (mut cost, departure) = template_cost(&words, &pattern);
        if template.general {
            cost += 1.0;
        }
        if kind.is_some_and(|k| !template.kinds.contains(&k)) {
            cost += 0.5;
        }
        if best.is_none_or(|(_, c, _)| cost < c - 1e-9) {
            best = Some((template, cost, departure));
        }
    }
    let Some((template, cost, departure)) = best else {
        return (None, None);
    };
    // Too far from everything: better no suggestion than a random one.
    if cost > 2.0 {
        return (None, None);
    }
    let span = departure.map(|d| match d {
        Departure::Word(i) => Span::new(words[i].start, words[i].end),
        Departure::End => Span::new(text.len(), text.len()),
    });
    let text = match kind {
        Some(k) if !template.kinds.contains(&k) => {
            format!("{} {}", kind_word(template.kinds[0]), template.text)
        }
        _ => template.text.to_string(),
    };
    (Some(text), span)
}

// ───────────────────────────── tests ─────────────────────────────

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rank, Suit};

    fn body(text: &str, kind: StepKind) -> StepBody {
        match parse_step_body(text, 0, kind) {
            Ok(body) => body,
            Err(p) => panic!("{text}: {p:?}"),
        }
    }

    fn problem(text: &str, kind: StepKind) -> Problem {
        match parse_step_body(text, 0, kind) {
            Ok(body) => panic!("{text} parsed: {body:?}"),
            Err(p) => p,
        }
    }

    fn face(rank: u8, suit: Suit) -> Face {
        Face::new(Rank(rank), suit)
    }

    #[test]
    fn placeholders_are_found_with_spans() {
        let found = placeholders("<player> holds <card>, <a b> and <>, <x", 10);
        let names: Vec<&str> = found.iter().map(|p| p.node.as_str()).collect();
        assert_eq!(names, ["player", "card", "a b"]);
        assert_eq!(found[1].span, Span::new(25, 31));
    }

    #[test]
    fn substitute_replaces_known_columns_only() {
        let cell = |s: &str| Spanned::new(s.to_string(), Span::default());
        let header = Row {
            span: Span::default(),
            cells: vec![cell("player"), cell("card")],
        };
        let row = Row {
            span: Span::default(),
            cells: vec![cell("bob"), cell("7S")],
        };
        assert_eq!(
            substitute("<player> holds <card>, <other>", &header, &row),
            "bob holds 7S, <other>"
        );
    }

    #[test]
    fn fixed_forms_win_over_properties() {
        assert_eq!(
            body("ann's slot 2 is KH", StepKind::Then),
            StepBody::SlotIs {
                player: Spanned::new("ann".into(), Span::new(0, 3)),
                slot: 2,
                card: Some(face(13, Suit::Hearts)),
            }
        );
        assert!(matches!(
            body("ann's slot 2 is empty", StepKind::Then),
            StepBody::SlotIs { card: None, .. }
        ));
        assert!(matches!(
            body("ann's score is -3", StepKind::Then),
            StepBody::ScoreIs { .. }
        ));
        assert!(
            matches!(body("the discard pile is empty", StepKind::Then), StepBody::DiscardPileIs(v) if v.is_empty())
        );
        assert!(matches!(
            body("the game is not over", StepKind::Then),
            StepBody::NotOver
        ));
        match body("the discard pile sealed is true", StepKind::Then) {
            StepBody::Property {
                player: None,
                name,
                value,
            } => {
                assert_eq!(name.node, "discard pile sealed");
                assert_eq!(value.node, Literal::Bool(true));
            }
            other => panic!("{other:?}"),
        }
        // `the game is …` is reserved for the fixed forms.
        assert_eq!(
            problem("the game is lost", StepKind::Then).message,
            "unknown step"
        );
    }

    #[test]
    fn time_is_exact_in_milliseconds() {
        assert_eq!(
            body("5 seconds pass", StepKind::When),
            StepBody::TimePasses { millis: 5000 }
        );
        assert_eq!(
            body("1 second passes", StepKind::When),
            StepBody::TimePasses { millis: 1000 }
        );
        assert_eq!(
            body("2.5 seconds pass", StepKind::When),
            StepBody::TimePasses { millis: 2500 }
        );
        assert_eq!(
            body("0.001 seconds pass", StepKind::When),
            StepBody::TimePasses { millis: 1 }
        );
        assert_eq!(
            problem("-1 seconds pass", StepKind::When).message,
            "time cannot run backwards"
        );
        assert!(
            problem("0.0005 seconds pass", StepKind::When)
                .message
                .contains("finer")
        );
    }

    #[test]
    fn action_arguments_are_typed() {
        let StepBody::Does { action, .. } = body(
            "ann does swap slot 0 and bob's slot 1, drawn 7S -1 left",
            StepKind::When,
        ) else {
            panic!("not does")
        };
        assert_eq!(action.name.node, "swap");
        let args: Vec<ArgExpr> = action.args.into_iter().map(|a| a.node).collect();
        assert_eq!(
            args,
            [
                ArgExpr::Slot {
                    owner: None,
                    slot: 0
                },
                ArgExpr::Slot {
                    owner: Some(Spanned::new("bob".into(), Span::new(25, 28))),
                    slot: 1
                },
                ArgExpr::Drawn,
                ArgExpr::Card(face(7, Suit::Spades)),
                ArgExpr::Number("-1".into()),
                ArgExpr::Word("left".into()),
            ]
        );
    }

    #[test]
    fn spans_are_offset() {
        let StepBody::Holds { player, cards } =
            parse_step_body("ann holds 7S, _", 100, StepKind::Given).expect("ok")
        else {
            panic!("not holds")
        };
        assert_eq!(player.span, Span::new(100, 103));
        assert_eq!(cards[1].span, Span::new(114, 115));
        let p = problem("ann holds 7S, 1S", StepKind::Given);
        assert_eq!(
            (p.message.as_str(), p.span),
            ("`1S` is not a card", Span::new(14, 16))
        );
        assert_eq!(
            p.help.as_deref(),
            Some("did you mean `AS`? (an ace is written `A`)")
        );
    }

    #[test]
    fn kinds_are_checked() {
        let p = problem("ann does snap 9C", StepKind::Then);
        assert_eq!(
            p.message,
            "`<player> does <action> [<args>]` is a When step, not a Then step"
        );
        assert_eq!(p.help.as_deref(), Some("write `When ann does snap 9C`"));
        let p = problem("ann holds 7S, ?", StepKind::Given);
        assert_eq!(p.message, "`?` (any card) is only for Then steps");
        assert!(matches!(
            body("ann holds 7S, ?", StepKind::Then),
            StepBody::Holds { .. }
        ));
    }

    #[test]
    fn unknown_steps_name_the_closest_form() {
        let cases = [
            (
                "ann hodls 7S, KH",
                StepKind::Given,
                "`<player> holds <card>, <card>, …`",
                "hodls",
            ),
            (
                "ann hold 5 cards",
                StepKind::Then,
                "`<player> holds <n> cards`",
                "hold",
            ),
            (
                "the draw pile is 5C 9H",
                StepKind::Given,
                "`the draw pile is <card>, <card>, …`",
                "9H",
            ),
            ("teh seed is 4", StepKind::Given, "`the seed is <n>`", "teh"),
            (
                "the game is lost",
                StepKind::Then,
                "`the game is over`",
                "lost",
            ),
            (
                "ann snaps 9C",
                StepKind::When,
                "`<player> does <action> [<args>]`",
                "snaps",
            ),
            (
                "only ann and bob see x",
                StepKind::Then,
                "`only <player> sees <event> [with <field> <value>] [<n> times]`",
                "and",
            ),
            ("time run out", StepKind::When, "`time runs out`", "run"),
            (
                "ann does",
                StepKind::When,
                "`<player> does <action> [<args>]`",
                "does",
            ),
            (
                "ann holds 5 cards",
                StepKind::When,
                "`Then <player> holds <n> cards`",
                "",
            ),
        ];
        for (text, kind, template, word) in cases {
            let p = parse_step_body(text, 0, kind).expect_err(text);
            if word.is_empty() && p.message != "unknown step" {
                continue;
            }
            assert_eq!(p.message, "unknown step", "{text}");
            assert_eq!(p.help, Some(format!("did you mean {template}?")), "{text}");
            assert_eq!(&text[p.span.start..p.span.end], word, "{text}");
        }
    }

    #[test]
    fn house_rule_values() {
        let value = |text: &str| match body(text, StepKind::Given) {
            StepBody::HouseRule { value, .. } => value.node,
            other => panic!("{other:?}"),
        };
        assert_eq!(value("the house rule a is true"), Literal::Bool(true));
        assert_eq!(
            value("the house rule a is -2.5"),
            Literal::Number("-2.5".into())
        );
        assert_eq!(value("the house rule a is AS"), Literal::Word("AS".into()));
        assert_eq!(
            value("the house rule a is [0, 1]"),
            Literal::List(vec![
                Literal::Number("0".into()),
                Literal::Number("1".into())
            ])
        );
        assert_eq!(
            problem("the house rule a is 1S", StepKind::Given).message,
            "`1S` is not a house-rule value"
        );
    }
}
