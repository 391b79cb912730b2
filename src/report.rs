//! The `--report FILE.html` page: one self-contained file (no network) whose inline script draws
//! the score distribution, the game-length histogram and the win rates as SVG charts.

use crate::sim::Summary;

/// The report page for a summary.
pub fn html(summary: &Summary) -> String {
    let data = summary.to_json().to_string().replace("</", "<\\/");
    let title = format!(
        "{}: {} games, {} players ({})",
        summary.variant,
        summary.games,
        summary.players,
        summary.seats.join(", ")
    );
    PAGE.replace("{{TITLE}}", &escape(&title))
        .replace("{{SUMMARY}}", &escape(&summary.to_text()))
        .replace("{{DATA}}", &data)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>deckspec report: {{TITLE}}</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  pre { background: #f5f5f5; padding: 1rem; overflow-x: auto; }
  .chart svg { width: 100%; height: auto; background: #fafafa; border: 1px solid #ddd; }
  .bar { fill: #4a7ab5; } .ci { stroke: #222; stroke-width: 1.5; }
  .axis { font-size: 11px; fill: #555; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<h2>Score distribution</h2><div class="chart" id="scores"></div>
<h2>Game length (actions)</h2><div class="chart" id="lengths"></div>
<h2>Win rate by seat (95% confidence intervals)</h2><div class="chart" id="seats"></div>
<h2>Win rate by level</h2><div class="chart" id="levels"></div>
<h2>Summary</h2>
<pre>{{SUMMARY}}</pre>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
// bars: [{label, value, low?, high?}]; max: the value axis' top.
function chart(id, bars, max, format) {
  const W = 800, H = 260, L = 50, B = 40, T = 10;
  const box = document.getElementById(id);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, box);
  const w = (W - L - 10) / Math.max(bars.length, 1);
  const y = v => H - B - (v / (max || 1)) * (H - B - T);
  el("line", { x1: L, y1: H - B, x2: W - 5, y2: H - B, stroke: "#999" }, svg);
  for (let i = 0; i <= 4; i++) {
    const v = max * i / 4;
    el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, svg).textContent = format(v);
  }
  const every = Math.ceil(bars.length / 20);
  bars.forEach((b, i) => {
    const x = L + i * w;
    el("rect", { x: x + w * 0.1, y: y(b.value), width: Math.max(w * 0.8, 1), height: Math.max(H - B - y(b.value), 0), class: "bar" }, svg)
      .appendChild(el("title", {})).textContent = `${b.label}: ${format(b.value)}`;
    if (b.low !== undefined) {
      el("line", { x1: x + w / 2, x2: x + w / 2, y1: y(b.low), y2: y(b.high), class: "ci" }, svg);
    }
    if (i % every === 0) {
      el("text", { x: x + w / 2, y: H - B + 16, "text-anchor": "middle", class: "axis" }, svg).textContent = b.label;
    }
  });
  box.dataset.rendered = String(bars.length);
}
const counts = m => Object.entries(m).map(([k, v]) => [Number(k), v]).sort((a, b) => a[0] - b[0]);
const pct = v => `${Math.round(v * 100)}%`;
const num = v => String(Math.round(v));

// A histogram on a linear axis: at most 30 bins of equal width.
function histogram(pairs) {
  if (!pairs.length) return [];
  const lo = pairs[0][0], hi = pairs[pairs.length - 1][0];
  const size = Math.max(1, Math.ceil((hi - lo + 1) / 30));
  const bins = Array.from({ length: Math.ceil((hi - lo + 1) / size) }, (_, i) =>
    ({ label: size === 1 ? String(lo + i) : `${lo + i * size}–${lo + i * size + size - 1}`, value: 0 }));
  for (const [x, n] of pairs) bins[Math.floor((x - lo) / size)].value += n;
  return bins;
}
const scores = histogram(counts(data.scores));
chart("scores", scores, Math.max(1, ...scores.map(b => b.value)), num);
const lengths = histogram(counts(data.lengths));
chart("lengths", lengths, Math.max(1, ...lengths.map(b => b.value)), num);

chart("seats", data.seat_win_rates.map((r, i) => ({ label: `seat ${i} (${data.seats[i]})`, value: r.rate, low: r.low, high: r.high })), 1, pct);
chart("levels", data.level_win_rates.map(r => ({ label: r.level, value: r.rate, low: r.low, high: r.high })), 1, pct);
document.body.dataset.charts = "ok";
</script>
</body>
</html>
"##;
