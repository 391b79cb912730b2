//! The `--html DIR` page of a coverage run: one self-contained `index.html` (no script, no
//! network) with the totals, each rule script with every line's count and its branches, each
//! function's numbers, and the rules trace.

use super::{CoverageReport, FileCoverage, RuleTrace, Tally, ranges};
use crate::report::{escape_html, fill};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The page for a report.
pub fn page(report: &CoverageReport) -> String {
    let title = format!(
        "{}: lines {}, branches {}",
        report.variants.join(", "),
        percent(report.lines),
        percent(report.branches)
    );
    fill(PAGE, |slot| match slot {
        "TITLE" => Some(escape_html(&title)),
        "SUMMARY" => Some(summary(report)),
        "FILES" => Some(report.files.iter().map(file_section).collect()),
        "RULES" => Some(rules_section(&report.rules)),
        _ => None,
    })
}

fn percent(t: Tally) -> String {
    format!("{:.1}% ({}/{})", t.percent(), t.hit, t.found)
}

/// A table cell with a tally, coloured by how much of it ran.
fn tally_cell(t: Tally) -> String {
    if t.found == 0 {
        return "<td colspan=2 class=\"n\">–</td>".to_string();
    }
    let class = if t.hit == t.found {
        "full"
    } else if t.percent() >= 75.0 {
        "most"
    } else {
        "low"
    };
    format!(
        "<td class=\"{class}\">{:.1}%</td><td class=\"n\">{}/{}</td>",
        t.percent(),
        t.hit,
        t.found
    )
}

fn anchor(path: &str) -> String {
    path.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

fn summary(report: &CoverageReport) -> String {
    let mut out = String::from(
        "<table><tr><th>Script</th><th colspan=2>Lines</th><th colspan=2>Functions</th><th colspan=2>Branches</th></tr>\n",
    );
    for f in &report.files {
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#{}\">{}</a></td>{}{}{}</tr>",
            anchor(&f.path),
            escape_html(&f.path),
            tally_cell(f.line_tally),
            tally_cell(f.function_tally),
            tally_cell(f.branch_tally)
        );
    }
    let _ = writeln!(
        out,
        "<tr class=\"total\"><td>All</td>{}{}{}</tr></table>",
        tally_cell(report.lines),
        tally_cell(report.functions),
        tally_cell(report.branches)
    );
    let _ = write!(
        out,
        "<p>{} scenarios in {:.1} s.</p>",
        report.scenarios, report.seconds
    );
    if !report.failed.is_empty() {
        out.push_str("<p class=\"warn\">These scenarios failed; their lines up to the failing step are counted:</p><ul>");
        for f in &report.failed {
            let _ = write!(out, "<li>{}</li>", escape_html(f));
        }
        out.push_str("</ul>");
    }
    out
}

fn file_section(file: &FileCoverage) -> String {
    let mut out = format!(
        "<section id=\"{}\"><h2>{}</h2>\n<table class=\"fns\"><tr><th>Function</th><th>Line</th><th>Calls</th><th colspan=2>Lines</th><th colspan=2>Branches</th><th>Not run</th></tr>\n",
        anchor(&file.path),
        escape_html(&file.path)
    );
    for f in &file.functions {
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#{}-{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td>{}{}<td>{}</td></tr>",
            anchor(&file.path),
            f.first_line,
            escape_html(&f.name),
            f.first_line,
            f.calls,
            tally_cell(f.lines),
            tally_cell(f.branches),
            escape_html(&ranges(&f.missed_lines))
        );
    }
    out.push_str("</table>\n<pre class=\"src\">");
    let counts: BTreeMap<u32, u64> = file.lines.iter().map(|l| (l.line, l.hits)).collect();
    let mut branches: BTreeMap<u32, Vec<&super::BranchCount>> = BTreeMap::new();
    for b in &file.branches {
        branches.entry(b.line).or_default().push(b);
    }
    for (i, text) in file.source.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (class, count) = match counts.get(&line) {
            Some(0) => ("miss", "0".to_string()),
            Some(n) => ("hit", n.to_string()),
            None => ("", String::new()),
        };
        let marks: String = branches
            .get(&line)
            .map(|bs| bs.iter().map(|b| branch_mark(b)).collect())
            .unwrap_or_default();
        // No newline between lines: each is a block already.
        let _ = write!(
            out,
            "<span id=\"{}-{line}\" class=\"l {class}\"><span class=\"ln\">{line:>4}</span><span class=\"c\">{count:>7}</span><span class=\"b\">{marks}</span> {}</span>",
            anchor(&file.path),
            escape_html(text)
        );
    }
    out.push_str("</pre></section>\n");
    out
}

/// A branch point's arms, e.g. `[then 12 · else 0]`, red when an arm never ran.
fn branch_mark(b: &super::BranchCount) -> String {
    let arms: Vec<String> = b
        .arms
        .iter()
        .map(|a| match a.taken {
            Some(n) => format!("{} {n}", a.label),
            None => format!("{} -", a.label),
        })
        .collect();
    let all = b.arms.iter().all(|a| a.taken.is_some_and(|n| n > 0));
    let taken = b
        .arms
        .iter()
        .filter(|a| a.taken.is_some_and(|n| n > 0))
        .count();
    format!(
        "<span class=\"br {}\" title=\"{} at column {}: {}\">{taken}/{}</span>",
        if all { "full" } else { "part" },
        b.kind,
        b.column,
        escape_html(&arms.join(" · ")),
        b.arms.len()
    )
}

fn rules_section(rules: &[RuleTrace]) -> String {
    let mut out = String::from(
        "<table class=\"rules\"><tr><th>Rule</th><th>Scenarios</th><th>Lines only its scenarios run</th></tr>\n",
    );
    for r in rules {
        let scenarios = if r.scenarios.is_empty() {
            "<span class=\"low\">none</span>".to_string()
        } else {
            r.scenarios
                .iter()
                .map(|s| escape_html(s))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let mut by_file: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for l in &r.own_lines {
            by_file.entry(l.file.as_str()).or_default().push(l.line);
        }
        let own: Vec<String> = by_file
            .iter()
            .map(|(file, lines)| {
                let links: Vec<String> = ranges(lines)
                    .split(", ")
                    .map(|range| {
                        let first = range.split('-').next().unwrap_or(range);
                        format!("<a href=\"#{}-{first}\">{range}</a>", anchor(file))
                    })
                    .collect();
                format!("{}: {}", escape_html(file), links.join(", "))
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr><td><b>{}</b> <small>({})</small><br>{}</td><td>{scenarios}</td><td>{}</td></tr>",
            escape_html(&r.id),
            escape_html(&r.variant),
            escape_html(&r.text),
            if own.is_empty() {
                "—".to_string()
            } else {
                own.join("<br>")
            }
        );
    }
    out.push_str("</table>");
    out
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>deckspec coverage: {{TITLE}}</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #222; padding: 0 1rem; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2.5rem; }
  table { border-collapse: collapse; margin: 0.5rem 0; }
  th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .full { background: #dff0d8; } .most { background: #fcf8e3; } .low { background: #f2dede; }
  tr.total td { font-weight: bold; }
  .warn { color: #a94442; }
  pre.src { font: 13px/1.35 ui-monospace, monospace; background: #fafafa; border: 1px solid #ddd; padding: 0.5rem 0; overflow-x: auto; }
  .l { display: block; white-space: pre; }
  .l.hit { background: #eef8ea; } .l.miss { background: #fbe3e3; }
  .ln { color: #999; padding: 0 0.5rem; } .c { color: #555; display: inline-block; min-width: 7ch; text-align: right; }
  .b { display: inline-block; min-width: 6ch; text-align: right; }
  .br { font-size: 11px; border-radius: 3px; padding: 0 3px; margin-left: 2px; }
  .br.full { background: #cde8c4; } .br.part { background: #f0b4b4; }
  .rules small { color: #666; }
</style>
</head>
<body>
<h1>Coverage of the rule scripts: {{TITLE}}</h1>
{{SUMMARY}}
<p>A line's count is how many times its statements ran; <span class="br part">1/2</span> marks an <code>if</code> or <code>switch</code> whose arms did not all run (hover for each arm's count).</p>
{{FILES}}
<h2 id="rules">Rules trace</h2>
<p>For each rule of the rulebook: the scenarios tagged with it, and the script lines those scenarios run that no other rule's scenarios run.</p>
{{RULES}}
</body>
</html>
"##;
