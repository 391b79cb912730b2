//! The `--report FILE.html` page of `balance` and `tune`: one self-contained file (no network)
//! whose inline script draws what was found with its intervals, as SVG: a study's shares and
//! lifts, a comparison's differences against their margins, a tuning's metric against the
//! rule's values and its target, or the skill matrix. The data is the command's own `--json`.

use crate::report::{escape_html, fill, script_json};

/// Which finding a page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// One study's metrics.
    Study,
    /// `--compare`: two configurations' differences.
    Compare,
    /// `--skill`: every pair of levels.
    Skill,
    /// `tune`: a rule's values raced toward a target.
    Tune,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::Study => "study",
            Page::Compare => "compare",
            Page::Skill => "skill",
            Page::Tune => "tune",
        }
    }
}

/// The page for a finding: its JSON (as `--json` prints it) drawn, its text below.
pub fn html(page: Page, json: &serde_json::Value, text: &str) -> String {
    let title = text.lines().next().unwrap_or("deckspec balance");
    fill(PAGE, |slot| match slot {
        "TITLE" => Some(escape_html(title)),
        "TEXT" => Some(escape_html(text)),
        "KIND" => Some(page.name().to_string()),
        "DATA" => Some(script_json(json)),
        _ => None,
    })
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>deckspec: {{TITLE}}</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 64rem; color: #222; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  pre { background: #f5f5f5; padding: 1rem; overflow-x: auto; font-size: 12px; }
  .chart svg { width: 100%; height: auto; background: #fafafa; border: 1px solid #ddd; }
  .axis { font-size: 11px; fill: #555; } .label { font-size: 11px; fill: #222; }
  .dot { fill: #4a7ab5; } .ci { stroke: #4a7ab5; stroke-width: 2; }
  .significant .dot { fill: #c0392b; } .significant .ci { stroke: #c0392b; }
  .within .dot { fill: #2e8b57; } .within .ci { stroke: #2e8b57; }
  .undecided .dot, .out .dot { fill: #999; } .undecided .ci, .out .ci { stroke: #999; }
  .closest .dot { fill: #c0392b; } .closest .ci { stroke: #c0392b; }
  .band { fill: #2e8b57; opacity: 0.12; } .zero { stroke: #333; stroke-dasharray: 3 3; }
  .key span { display: inline-block; margin-right: 1.2rem; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<div id="charts"></div>
<h2>As printed</h2>
<pre>{{TEXT}}</pre>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const kind = "{{KIND}}";
const data = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
const charts = document.getElementById("charts");
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function section(id, title, note) {
  const h = document.createElement("h2");
  h.textContent = title;
  charts.appendChild(h);
  if (note) {
    const p = document.createElement("p");
    p.className = "key";
    p.textContent = note;
    charts.appendChild(p);
  }
  const box = document.createElement("div");
  box.className = "chart";
  box.id = id;
  charts.appendChild(box);
  return box;
}
const fmt = v => Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3);

// Rows of {label, value, low, high, cls} as dots with whiskers on one horizontal axis from lo to
// hi; `band` shades [-band, band]; `line` marks a value (0, or a target).
function forest(box, rows, lo, hi, opts) {
  rows = rows.filter(r => r.value !== null && r.value !== undefined);
  const W = 900, L = 290, R = 20, T = 24, row = 18, H = T + rows.length * row + 10;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, box);
  const x = v => L + (Math.min(Math.max(v, lo), hi) - lo) / ((hi - lo) || 1) * (W - L - R);
  for (let i = 0; i <= 4; i++) {
    const v = lo + (hi - lo) * i / 4;
    el("text", { x: x(v), y: 14, "text-anchor": "middle", class: "axis" }, svg).textContent = opts.axis(v);
  }
  if (opts.band) {
    el("rect", { x: x(-opts.band), y: T - 4, width: Math.max(x(opts.band) - x(-opts.band), 1), height: rows.length * row + 4, class: "band" }, svg);
  }
  if (opts.line !== undefined) {
    el("line", { x1: x(opts.line), x2: x(opts.line), y1: T - 6, y2: H - 6, class: "zero" }, svg);
  }
  rows.forEach((r, i) => {
    const y = T + i * row + row / 2;
    const g = el("g", { class: r.cls || "" }, svg);
    el("text", { x: L - 8, y: y + 4, "text-anchor": "end", class: "label" }, g).textContent = r.label;
    if (r.low !== null && r.low !== undefined) {
      el("line", { x1: x(r.low), x2: x(r.high), y1: y, y2: y, class: "ci" }, g);
    }
    el("circle", { cx: x(r.value), cy: y, r: 4, class: "dot" }, g)
      .appendChild(el("title", {})).textContent = `${r.label}: ${fmt(r.value)}` +
        (r.low !== null && r.low !== undefined ? ` (${fmt(r.low)} to ${fmt(r.high)})` : "");
  });
  box.dataset.rendered = String(rows.length);
}
const spanOf = rows => {
  const vs = rows.flatMap(r => [r.value, r.low, r.high]).filter(v => v !== null && v !== undefined);
  const m = Math.max(1e-9, ...vs.map(Math.abs));
  return m * 1.1;
};
const row = (label, v, interval, cls) => ({ label, value: v, low: interval ? interval[0] : null, high: interval ? interval[1] : null, cls });

if (kind === "study") {
  const shares = data.metrics.filter(m => m.kind === "share");
  forest(section("shares", "Shares (95% intervals)"), shares.map(m => row(m.id, m.value, m.interval)), 0, 1, { axis: v => `${Math.round(v * 100)}%` });
  const lifts = data.metrics.filter(m => m.kind === "lift");
  const s = spanOf(lifts.map(m => row(m.id, m.value, m.interval)));
  forest(section("lifts", "Win lift of each action (95% intervals): large is dominant"), lifts.map(m => row(m.id, m.value, m.interval)), -s, s, { axis: fmt, line: 0 });
  const means = data.metrics.filter(m => m.kind === "mean" && m.value);
  forest(section("means", "Means, each against its own value (95% interval as a share of the value)"),
    means.map(m => row(`${m.id} = ${fmt(m.value)}`, 0, m.interval && [(m.interval[0] - m.value) / Math.abs(m.value), (m.interval[1] - m.value) / Math.abs(m.value)])),
    -0.2, 0.2, { axis: v => `${Math.round(v * 100)}%`, line: 0 });
  const fired = (data.rule_metrics || []).filter(m => m.value !== null);
  if (fired.length) {
    const rules = data.rule_activation.rules;
    const fr = fired.map((m, i) => row(`${rules[i].id}${rules[i].shared_by > 1 ? ` (with ${rules[i].shared_by - 1} other rule${rules[i].shared_by === 2 ? "" : "s"})` : ""}`, m.value, m.interval));
    const top = Math.max(1, ...fr.map(r => r.high === null ? r.value : r.high)) * 1.05;
    forest(section("rules", `Times each rule fired a game (95% intervals), on ${data.probed_games} probed games`, "a rule shared with others counts what their scenarios run too"),
      fr, 0, top, { axis: fmt });
  }
} else if (kind === "compare") {
  const c = data.comparison, cls = d => d.significant ? "significant" : d.equivalent ? "within" : d.decided ? "" : "undecided";
  const key = "red: significant; green: within the margin (shaded); grey: undecided";
  const points = c.differences.filter(d => d.kind === "share" || d.kind === "lift");
  const pr = points.map(d => row(d.id, d.difference, d.interval, cls(d)));
  const ps = Math.max(spanOf(pr), data.margin.points * 1.5);
  forest(section("points", `B less A: shares and lifts, in points (95% intervals)`, key), pr, -ps, ps, { axis: fmt, line: 0, band: data.margin.points });
  const means = c.differences.filter(d => d.kind === "mean" && d.a);
  const mr = means.map(d => row(d.id, d.difference / Math.abs(d.a), d.interval && [d.interval[0] / Math.abs(d.a), d.interval[1] / Math.abs(d.a)], cls(d)));
  const ms = Math.max(spanOf(mr), data.margin.relative * 1.5);
  forest(section("relative", "B less A: means, as a share of A's value (95% intervals)", key), mr, -ms, ms, { axis: v => `${Math.round(v * 100)}%`, line: 0, band: data.margin.relative });
} else if (kind === "tune") {
  const t = data.tuning;
  const rows = t.candidates.map((c, i) => row(`${data.rule} = ${c.value}${c.out_in_round ? ` (out at look ${c.out_in_round})` : i === t.best ? " (closest)" : " (still in)"}`,
    c.metric, c.interval, i === t.best ? "closest" : c.out_in_round ? "out" : ""));
  const vs = rows.flatMap(r => [r.value, r.low, r.high]).concat([data.target]).filter(v => v !== null && v !== undefined);
  const lo = Math.min(...vs), hi = Math.max(...vs), pad = (hi - lo) * 0.1 || 0.1;
  forest(section("values", `${data.metric} by ${data.rule} (95% intervals; dashed: the target ${data.target})`, "red: closest; blue: still in; grey: put out"),
    rows, lo - pad, hi + pad, { axis: fmt, line: data.target });
} else if (kind === "skill") {
  const levels = [...new Set(data.skill.flatMap(m => [m.level, m.against]))];
  const W = 900, L = 120, T = 30, cell = Math.min(120, (W - L - 10) / Math.max(levels.length, 1)), H = T + levels.length * 40 + 10;
  const box = section("matrix", "Win share of the row's level against the column's", "red: the row wins more; blue: less");
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, box);
  let cells = 0;
  levels.forEach((col, j) => { el("text", { x: L + j * cell + cell / 2, y: 18, "text-anchor": "middle", class: "label" }, svg).textContent = col; });
  levels.forEach((rowLevel, i) => {
    el("text", { x: L - 8, y: T + i * 40 + 24, "text-anchor": "end", class: "label" }, svg).textContent = rowLevel;
    levels.forEach((col, j) => {
      const m = data.skill.find(m => m.level === rowLevel && m.against === col);
      if (!m || !m.wins.n) return;
      const p = m.wins.hits / m.wins.n;
      const red = Math.round(255 * Math.min(1, 2 * p)), blue = Math.round(255 * Math.min(1, 2 * (1 - p)));
      const green = Math.round(255 * (1 - Math.abs(p - 0.5) * 2) * 0.9 + 20);
      el("rect", { x: L + j * cell + 2, y: T + i * 40 + 2, width: cell - 4, height: 36, fill: `rgb(${red},${green},${blue})` }, svg);
      el("text", { x: L + j * cell + cell / 2, y: T + i * 40 + 24, "text-anchor": "middle", class: "label" }, svg).textContent = p.toFixed(3);
      cells += 1;
    });
  });
  box.dataset.rendered = String(cells);
}
document.body.dataset.charts = "ok";
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::{PAGE, Page, html};

    #[test]
    fn the_template_has_exactly_the_known_placeholders() {
        let names: Vec<&str> = PAGE
            .split("{{")
            .skip(1)
            .map(|s| s.split("}}").next().unwrap())
            .collect();
        assert_eq!(names, ["TITLE", "TITLE", "TEXT", "DATA", "KIND"]);
    }

    #[test]
    fn hostile_text_and_data_reach_the_page_escaped() {
        let img = "<img src=x onerror=alert(1)>";
        let json = serde_json::json!({ "variant": format!("{{{{TEXT}}}}</script>{img}") });
        let page = html(Page::Study, &json, &format!("{{{{DATA}}}}{img}\nmore"));
        assert!(!page.contains("<img"), "{page}");
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(page.contains("{{DATA}}&lt;img"), "{page}");
    }
}
