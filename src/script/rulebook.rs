//! `rulebook.yaml`: a variant's numbered rules, each with the seed section or ruling it comes from.

use super::error::{ConfigProblem, SourceDiagnostic, VariantError, locate};
use serde::Deserialize;
use std::path::Path;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleEntry {
    pub id: String,
    pub source: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    pub variant: String,
    pub rules: Vec<RuleEntry>,
}

impl Rulebook {
    pub fn load(root: &super::files::RulesRoot, path: &Path) -> Result<Rulebook, VariantError> {
        let src = super::load::read_file(root, path)?;
        Rulebook::parse(&src).map_err(|p| {
            VariantError::Config(Box::new(SourceDiagnostic::new(
                path, &src, p.span, p.message, "here",
            )))
        })
    }

    pub fn parse(src: &str) -> Result<Rulebook, ConfigProblem> {
        let book: Rulebook =
            serde_yaml::from_str(src).map_err(|e| ConfigProblem::from_yaml(src, &e))?;
        for (i, rule) in book.rules.iter().enumerate() {
            let problem = |message: String| ConfigProblem {
                message,
                span: locate(src, &[], Some(&rule.id)),
            };
            if book.rules[..i].iter().any(|r| r.id == rule.id) {
                let first = locate(src, &[], Some(&rule.id)).1;
                return Err(ConfigProblem {
                    message: format!("rule id `{}` is used twice", rule.id),
                    span: {
                        let again = src[first..].find(&rule.id).map_or(first, |n| first + n);
                        (again, again + rule.id.len())
                    },
                });
            }
            if rule.text.trim().is_empty() || rule.source.trim().is_empty() {
                return Err(problem(format!(
                    "rule `{}` needs a source and a text",
                    rule.id
                )));
            }
        }
        Ok(book)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.id.as_str())
    }
}
