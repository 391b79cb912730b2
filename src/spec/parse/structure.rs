//! The file level of the parser: the Gherkin structure (Feature, Rule, Background, Scenario,
//! Examples, steps, tables and doc strings) built line by line from the `file` rule's pairs.

use super::fill::check_expansion;
use super::grammar::Rule;
use super::outline::Checker;
use super::{keyword_word, line_start, sorted, span_of, trimmed_span_of};
use crate::spec::ast::{
    Background, DocString, Examples, Feature, Row, RuleBlock, Scenario, Span, Spanned, Step,
    StepKeyword, StepKind, Table, Tag,
};
use crate::spec::diag::{LineIndex, Problem};
use pest::iterators::Pair;
use std::collections::{HashMap, HashSet};

/// The keyword lines of the structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Header {
    Feature,
    Rule,
    Background,
    Scenario,
    Outline,
    Examples,
}

const TAG_PLACES: &str =
    "tags go on `Feature:`, `Rule:`, `Scenario:`, `Scenario Outline:` and `Examples:` lines";

/// Where the steps of the current line go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Section {
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
pub(super) enum Container {
    Feature,
    Rule(usize),
}

/// Builds the structure from the file's lines, then checks every step.
pub(super) struct Builder<'s> {
    pub(super) src: &'s str,
    pub(super) problems: Vec<Problem>,
    pub(super) feature: Option<Feature>,
    /// The feature was made up to go on after a missing `Feature:` line.
    pub(super) implicit_feature: bool,
    pub(super) pending_tags: Vec<Tag>,
    pub(super) container: Container,
    pub(super) section: Section,
    /// Free lines are description text of the current Feature or Rule.
    pub(super) description: bool,
    /// A table row or doc string may still attach to the last step.
    pub(super) attach: bool,
    pub(super) discarded: Vec<Step>,
    /// Steps (by span start) whose kind could not be resolved (`And` as first step).
    pub(super) unknown_kind: HashSet<usize>,
    /// The span of each step's keyword as written, by step span start.
    pub(super) keyword_spans: HashMap<usize, Span>,
    /// For each doc string (by span start), content offset to file offset of each content line.
    pub(super) doc_maps: HashMap<usize, Vec<(usize, usize)>>,
    /// Doc strings (by span start) that are never closed: their content is not checked.
    pub(super) broken_docs: HashSet<usize>,
}

impl<'s> Builder<'s> {
    pub(super) fn new(src: &'s str) -> Builder<'s> {
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

    pub(super) fn problem(
        &mut self,
        message: impl Into<String>,
        span: Span,
        label: &str,
        help: impl Into<String>,
    ) {
        self.problems
            .push(Problem::new(message, span, label).with_help(Some(help.into())));
    }

    pub(super) fn line(&mut self, pair: Pair<'s, Rule>) {
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

    pub(super) fn rule_block(&mut self) -> Option<&mut RuleBlock> {
        match self.container {
            Container::Rule(i) => self.feature.as_mut()?.rules.get_mut(i),
            Container::Feature => None,
        }
    }

    pub(super) fn background_mut(&mut self) -> Option<&mut Option<Background>> {
        match self.container {
            Container::Feature => Some(&mut self.feature.as_mut()?.background),
            Container::Rule(_) => Some(&mut self.rule_block()?.background),
        }
    }

    pub(super) fn scenarios_mut(&mut self) -> Option<&mut Vec<Scenario>> {
        match self.container {
            Container::Feature => Some(&mut self.feature.as_mut()?.scenarios),
            Container::Rule(_) => Some(&mut self.rule_block()?.scenarios),
        }
    }

    pub(super) fn steps_mut(&mut self) -> Option<&mut Vec<Step>> {
        match self.section {
            Section::Discard => Some(&mut self.discarded),
            Section::Background => Some(&mut self.background_mut()?.as_mut()?.steps),
            Section::Scenario => Some(&mut self.scenarios_mut()?.last_mut()?.steps),
            _ => None,
        }
    }

    pub(super) fn add_description(&mut self, text: &str) {
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
    pub(super) fn refuse_tags(&mut self, what: &str) {
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
    pub(super) fn ensure_feature(&mut self, at: Span) {
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

    pub(super) fn tags_line(&mut self, pair: Pair<'s, Rule>) {
        self.description = false;
        self.attach = false;
        for tag in pair.into_inner().filter(|p| p.as_rule() == Rule::tag) {
            self.pending_tags.push(Tag {
                name: tag.as_str()[1..].to_string(),
                span: span_of(&tag),
            });
        }
    }

    pub(super) fn header_pair(&mut self, header: Header, pair: Pair<'s, Rule>) {
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

    pub(super) fn header(&mut self, header: Header, line: Span, keyword: Span, title: &str) {
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

    pub(super) fn step_line(&mut self, pair: Pair<'s, Rule>) {
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

    pub(super) fn step(
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

    pub(super) fn table_row(&mut self, pair: Pair<'s, Rule>) {
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

    pub(super) fn doc_string(&mut self, pair: Pair<'s, Rule>) {
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

    pub(super) fn doc_unclosed(&mut self, pair: Pair<'s, Rule>) {
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

    // ── the end ──

    /// The feature as far as it could be read, and every problem. A feature with problems still
    /// comes back (steps that do not parse have no body) so that the rest of it can be checked;
    /// none comes back when there is no structure to check (no `Feature:`, too large an outline).
    pub(super) fn finish(mut self) -> (Option<Feature>, Vec<Problem>) {
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
        let lines = LineIndex::new(self.src);
        if let Some(feature) = &feature
            && let Some(problem) = check_expansion(feature, &lines)
        {
            self.problems.push(problem);
            return (None, sorted(std::mem::take(&mut self.problems)));
        }
        let mut checker = Checker {
            lines: &lines,
            problems: std::mem::take(&mut self.problems),
            unknown_kind: &self.unknown_kind,
            keyword_spans: &self.keyword_spans,
            doc_maps: &self.doc_maps,
            broken_docs: &self.broken_docs,
        };
        let mut discarded = std::mem::take(&mut self.discarded);
        checker.steps(&mut discarded);
        let Some(mut feature) = feature else {
            let mut problems = checker.problems;
            problems.push(
                Problem::new("missing `Feature:`", Span::new(0, 0), "no Feature").with_help(Some(
                    "a scenario file starts with `Feature: <name>` (after optional `@tags` and `#` comments)".into(),
                )),
            );
            return (None, sorted(problems));
        };
        checker.container(&mut feature.background, &mut feature.scenarios);
        for rule in &mut feature.rules {
            checker.container(&mut rule.background, &mut rule.scenarios);
        }
        (Some(feature), sorted(checker.problems))
    }
}

/// A table cell: text trimmed and unescaped, span of the trimmed text.
pub(super) fn cell_of(pair: &Pair<'_, Rule>) -> Spanned<String> {
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
