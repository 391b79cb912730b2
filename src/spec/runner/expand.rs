//! Expansion: each scenario with its Feature's and Rule's background steps before its own, and
//! each Scenario Outline once per Examples row with its placeholders filled.

use super::Concrete;
use crate::spec::ast::*;
use crate::spec::diag::Problem;
use crate::spec::parse::{Columns, fill_step, fill_text};

/// Expand a feature into runnable scenarios (backgrounds prepended, outlines per row).
/// Problems are returned for outline steps that do not parse after substitution.
pub fn expand(feature: &Feature) -> (Vec<Concrete>, Vec<Problem>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let feature_tags: Vec<String> = feature.tags.iter().map(|t| t.name.clone()).collect();
    let mut blocks: Vec<(Vec<String>, Vec<&Step>, &Vec<Scenario>)> = Vec::new();
    let feature_bg: Vec<&Step> = feature
        .background
        .iter()
        .flat_map(|b| b.steps.iter())
        .collect();
    blocks.push((feature_tags.clone(), feature_bg.clone(), &feature.scenarios));
    for rule in &feature.rules {
        let mut tags = feature_tags.clone();
        tags.extend(rule.tags.iter().map(|t| t.name.clone()));
        let mut bg = feature_bg.clone();
        bg.extend(rule.background.iter().flat_map(|b| b.steps.iter()));
        blocks.push((tags, bg, &rule.scenarios));
    }
    for (tags, background, scenarios) in blocks {
        for scenario in scenarios {
            let mut scenario_tags = tags.clone();
            scenario_tags.extend(scenario.tags.iter().map(|t| t.name.clone()));
            let steps: Vec<Step> = background
                .iter()
                .map(|s| (*s).clone())
                .chain(scenario.steps.iter().cloned())
                .collect();
            if !scenario.is_outline {
                out.push(Concrete {
                    name: scenario.name.clone(),
                    span: scenario.span,
                    tags: scenario_tags,
                    steps,
                    example_row: None,
                });
                continue;
            }
            for examples in &scenario.examples {
                let Some((header, rows)) = examples.table.rows.split_first() else {
                    continue;
                };
                let columns = Columns::new(header);
                let mut example_tags = scenario_tags.clone();
                example_tags.extend(examples.tags.iter().map(|t| t.name.clone()));
                for (n, row) in rows.iter().enumerate() {
                    let mut concrete_steps = Vec::with_capacity(steps.len());
                    for step in &steps {
                        match fill_step(step, &columns, row) {
                            Ok(step) => concrete_steps.push(step),
                            Err(found) => {
                                for mut p in found {
                                    p.message =
                                        format!("{} (in Examples row {})", p.message, n + 1);
                                    problems.push(p);
                                }
                            }
                        }
                    }
                    out.push(Concrete {
                        name: format!("{} ({})", fill_text(&scenario.name, &columns, row), n + 1),
                        span: scenario.span,
                        tags: example_tags.clone(),
                        steps: concrete_steps,
                        example_row: Some(row.span),
                    });
                }
            }
        }
    }
    (out, problems)
}
