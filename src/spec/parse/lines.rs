//! Lines that no rule of the file grammar accepts (`other_line`): description text, misspelled
//! keywords (read on as if spelled right), steps without a keyword, and broken tag lines.

use super::grammar::{Rule, ScenarioParser};
use super::step::too_deep;
use super::structure::{Builder, Header, Section};
use super::{keyword_word, trimmed_span_of};
use crate::spec::ast::{Span, StepKeyword, Tag};
use crate::spec::diag::did_you_mean;
use pest::Parser as _;
use pest::iterators::Pair;

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

impl<'s> Builder<'s> {
    pub(super) fn other_line(&mut self, pair: Pair<'s, Rule>) {
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
        ) && too_deep(text).is_none()
            && ScenarioParser::parse(Rule::step, text).is_ok()
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
}

/// `word` itself when it is a candidate, else the candidate it most likely misspells.
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    // No keyword is near a long word: do not compare it letter by letter.
    if word.len() > 32 {
        return None;
    }
    candidates
        .clone()
        .find(|c| *c == word)
        .or_else(|| did_you_mean(word, candidates))
}

/// The header keyword a misspelled word most likely means, and how to write it.
fn closest_header(word: &str) -> Option<(Header, &'static str)> {
    if word.len() > 32 {
        return None;
    }
    let lower = word.trim().to_lowercase();
    let best = closest(&lower, HEADER_WORDS.iter().map(|(w, _, _)| *w))?;
    HEADER_WORDS
        .iter()
        .find(|(w, _, _)| *w == best)
        .map(|(_, header, written)| (*header, *written))
}

/// The step keyword a misspelled word most likely means.
fn closest_step_keyword(word: &str) -> Option<StepKeyword> {
    if word.len() > 32 {
        return None;
    }
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
