//! `rulebook.yaml`: a variant's numbered rules, each with the seed section or ruling it comes from.

use super::super::host::error::{ConfigProblem, SourceDiagnostic, VariantError, locate};
use serde::Deserialize;
use std::path::Path;

/// One numbered rule.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleEntry {
    /// Its id (`CAM-SNAP-3`), unique in the rulebook; scenarios cite it as `@rule:<id>`.
    pub id: String,
    /// The seed section or ruling it comes from.
    pub source: String,
    /// The rule itself.
    pub text: String,
}

/// A variant's `rulebook.yaml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    /// The variant the rulebook is written for (checked against the variant that loads it).
    pub variant: String,
    /// The titles of the documents its rules cite besides the bundled variants' (a new
    /// variant's own source: `"Golf (six-card), as commonly played"`).
    #[serde(default)]
    pub documents: Vec<String>,
    /// Its rules, in file order.
    pub rules: Vec<RuleEntry>,
}

impl Rulebook {
    /// Read and check `path`, inside `root`.
    pub(crate) fn load(
        root: &super::super::host::files::RulesRoot,
        path: &Path,
    ) -> Result<Rulebook, VariantError> {
        let src = super::super::sources::read_file(root, path)?;
        Rulebook::parse(&src).map_err(|p| {
            VariantError::Config(Box::new(SourceDiagnostic::new(
                path, &src, p.span, p.message, "here",
            )))
        })
    }

    /// Parse and check a rulebook's text: every rule has a source and a text, and no id is
    /// used twice.
    pub(crate) fn parse(src: &str) -> Result<Rulebook, ConfigProblem> {
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

    /// The rule ids, in file order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.id.as_str())
    }
}
