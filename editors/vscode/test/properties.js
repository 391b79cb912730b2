// Test helper: what the grammar must give each line of a scenario file, worked out from the text alone (as deckspec's parser reads it), as a list of violations.
'use strict';

const { scopesAt } = require('./tokenizer');

const STEP = /^(\s*)(Given|When|Then|And|But)(?=[ \t]|$)/;
const HEADER = /^(\s*)(Feature|Rule|Background|Scenario[ \t]+(?:Outline|Template)|Scenario|Example|Examples|Scenarios):/;
const DOC_OPEN = /^(\s*)"""/;
const DOC_CLOSE = /^(\s*)"""\s*$/;
const COMMENT = /^(\s*)#/;
const TAGS = /^\s*@/;
const ROW = /^(\s*)\|/;
const CARD = /^(?:(?:10|[2-9AJQK])[SHDC♠♥♦♣]|JK)$/u;
const ACTIONS = [
  /\b(?:does|did)[ \t]+(?!not[ \t]+(?:know|see)\b)([A-Za-z_]\w*)/g,
  /\bmay[ \t]+(?:not[ \t]+)?do[ \t]+([A-Za-z_]\w*)/g,
  /\bbot[ \t]+chose[ \t]+([A-Za-z_]\w*)/g,
];

const SUFFIX = '.deckspec-feature';

/** The kind of a header keyword, as the grammar names its scopes. */
function headerKind(keyword) {
  if (keyword === 'Feature' || keyword === 'Rule' || keyword === 'Background') return keyword.toLowerCase();
  if (keyword === 'Examples' || keyword === 'Scenarios') return 'examples';
  if (keyword.startsWith('Scenario ')) return 'scenario-outline';
  return 'scenario';
}

/** Whether `scopes` holds the grammar's scope `name` or one under it (`entity.name.tag` holds for `entity.name.tag.rule.deckspec-feature`). */
function has(scopes, name) {
  return scopes.some((s) => s.endsWith(SUFFIX) && (s === name + SUFFIX || s.startsWith(name + '.')));
}

/** The `<name>` placeholders of a text, found as deckspec finds them: `<`, then no `<`, `>` or line break, then `>`. */
function placeholders(text) {
  const found = [];
  let rest = 0;
  for (;;) {
    const open = text.indexOf('<', rest);
    if (open < 0) return found;
    const after = text.slice(open + 1);
    const stop = after.search(/[<>\n]/);
    if (stop > 0 && after[stop] === '>') {
      found.push({ start: open, end: open + stop + 2 });
      rest = open + stop + 2;
    } else {
      rest = open + 1;
    }
  }
}

/** `text` with each quoted text `"…"` (escapes included) blanked out, so words in it are not read as cards or actions. */
function blankQuotes(text) {
  return text.replace(/"(?:[^"\\]|\\.)*"?/g, (q) => ' '.repeat(q.length));
}

/** The columns of the unescaped `|` of a table row. */
function pipes(text) {
  const found = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '|') found.push(i);
  }
  return found;
}

/**
 * Checks the tokens of one file; returns the violations (`line N: …`) and how many lines of each
 * kind were checked. `lines` is what `tokenize` returns.
 */
function checkFile(lines) {
  const violations = [];
  const seen = { step: 0, header: 0, ruleTag: 0, comment: 0, docLine: 0, row: 0, headerRow: 0, placeholder: 0, card: 0, action: 0 };
  let inDoc = false;
  let inOutline = false;
  let examplesHeader = false;

  lines.forEach((line, index) => {
    const n = index + 1;
    const text = line.text;
    const at = (column) => scopesAt(line, column);
    const expect = (from, to, name, what) => {
      for (let c = from; c < to; c++) {
        if (!has(at(c), name)) {
          violations.push(`line ${n}: ${what} (${JSON.stringify(text.slice(from, to))}) lacks ${name} at column ${c + 1}: ${at(c).join(' ') || 'no scope'}`);
          return;
        }
      }
    };
    const forbid = (name, what, except = () => false) => {
      for (let c = 0; c < text.length; c++) {
        if (!except(c) && has(at(c), name)) {
          violations.push(`line ${n}: ${what} has ${name} at column ${c + 1}`);
          return;
        }
      }
    };
    const trimmedEnd = text.replace(/\s+$/, '').length;

    if (inDoc) {
      const close = DOC_CLOSE.exec(text);
      if (close) {
        const q = close[1].length;
        expect(q, q + 3, 'punctuation.definition.string.end', 'the closing """');
        expect(q, q + 3, 'string.quoted.docstring', 'the closing """');
        inDoc = false;
      } else {
        seen.docLine++;
        expect(0, text.length, 'string.quoted.docstring', 'a doc string line');
        forbid('keyword.control', 'a doc string line');
        forbid('comment', 'a doc string line');
        forbid('meta.table', 'a doc string line');
        forbid('meta.tags', 'a doc string line');
        if (inOutline) {
          for (const p of placeholders(text)) {
            seen.placeholder++;
            expect(p.start, p.end, 'variable.parameter.placeholder', 'a placeholder in a doc string');
          }
        }
      }
      return;
    }

    if (!ROW.test(text) && !COMMENT.test(text) && text.trim() !== '') examplesHeader = false;

    const open = DOC_OPEN.exec(text);
    if (open) {
      const q = open[1].length;
      expect(q, q + 3, 'punctuation.definition.string.begin', 'the opening """');
      expect(q, text.length, 'string.quoted.docstring', 'the opening line of a doc string');
      inDoc = true;
      return;
    }

    const comment = COMMENT.exec(text);
    if (comment) {
      seen.comment++;
      const h = comment[1].length;
      expect(h, h + 1, 'punctuation.definition.comment', 'the # of a comment');
      expect(h, text.length, 'comment.line.number-sign', 'a comment line');
      forbid('keyword.control', 'a comment line');
      return;
    }

    if (TAGS.test(text)) {
      for (const m of text.matchAll(/(?<!\S)@[^\s@#]+/g)) {
        expect(m.index, m.index + m[0].length, 'entity.name.tag', `the tag ${m[0]}`);
        const rule = /^@rule:(.+)$/.exec(m[0]);
        if (rule) {
          seen.ruleTag++;
          expect(m.index, m.index + 6, 'entity.name.tag.rule', `the tag ${m[0]}`);
          expect(m.index + 6, m.index + m[0].length, 'constant.other.rule-id', `the rule id of ${m[0]}`);
        } else {
          const from = m.index;
          const to = m.index + m[0].length;
          forbid('constant.other.rule-id', `the tag ${m[0]}`, (c) => c < from || c >= to);
        }
      }
      const hash = text.search(/(?<=\s)#/);
      if (hash >= 0) expect(hash, text.length, 'comment.line.number-sign', 'the comment after tags');
      return;
    }

    const header = HEADER.exec(text);
    if (header) {
      seen.header++;
      const kind = headerKind(header[2].replace(/[ \t]+/, ' '));
      const start = header[1].length;
      const end = header[0].length;
      expect(start, end, `keyword.control.${kind}`, `the keyword ${header[2]}:`);
      const title = text.slice(end).trim();
      if (title) {
        const from = text.indexOf(title, end);
        expect(from, from + title.length, `entity.name.section.${kind}`, `the title of ${header[2]}:`);
      }
      forbid('keyword.control.step', 'a header line');
      if (kind === 'scenario-outline') inOutline = true;
      else if (kind !== 'examples') inOutline = false;
      examplesHeader = kind === 'examples';
      return;
    }

    const step = STEP.exec(text);
    if (step) {
      seen.step++;
      const start = step[1].length;
      const end = step[0].length;
      expect(start, end, 'keyword.control.step', `the step keyword ${step[2]}`);
      forbid('keyword.control.step', 'the text of a step', (c) => c >= start && c < end);
      expect(end, trimmedEnd, 'meta.step', 'the text of a step');
      for (const p of placeholders(text)) {
        seen.placeholder++;
        expect(p.start, p.end, 'variable.parameter.placeholder', 'a placeholder in a step');
      }
      const plain = blankQuotes(text.slice(end));
      for (const m of plain.matchAll(/[^\s,[\]]+/g)) {
        const from = end + m.index;
        const to = from + m[0].length;
        const word = m[0];
        if (CARD.test(word)) {
          seen.card++;
          expect(from, to, 'constant.other.card', `the card ${word}`);
        } else {
          for (let c = from; c < to; c++) {
            if (has(at(c), 'constant.other.card')) {
              violations.push(`line ${n}: ${JSON.stringify(word)} is not a card but has constant.other.card`);
              break;
            }
          }
        }
      }
      for (const pattern of ACTIONS) {
        for (const m of plain.matchAll(pattern)) {
          seen.action++;
          const from = end + m.index + m[0].length - m[1].length;
          expect(from, from + m[1].length, 'entity.name.function.action', `the action ${m[1]}`);
        }
      }
      return;
    }

    if (ROW.test(text)) {
      seen.row++;
      const bars = pipes(text);
      const first = bars[0];
      const isHeader = examplesHeader;
      examplesHeader = false;
      if (isHeader) seen.headerRow++;
      expect(first, trimmedEnd, isHeader ? 'meta.table.row.header' : 'meta.table.row', isHeader ? 'an Examples header row' : 'a table row');
      for (const b of bars) expect(b, b + 1, 'punctuation.separator.table', 'a | of a table row');
      for (let i = 0; i + 1 < bars.length; i++) {
        const cell = text.slice(bars[i] + 1, bars[i + 1]);
        if (cell.length > 0) expect(bars[i] + 1, bars[i + 1], 'meta.table.cell', `the cell ${JSON.stringify(cell.trim())}`);
        const name = cell.trim();
        if (isHeader && name) {
          const from = bars[i] + 1 + cell.indexOf(name);
          expect(from, from + name.length, 'variable.parameter.column', `the column ${name}`);
        }
      }
      forbid('keyword.control', 'a table row');
      return;
    }

    // A blank line, a description, or a line deckspec reports (a misspelled keyword): no structure.
    forbid('keyword.control', 'a line that is no step or header');
    forbid('meta.step', 'a line that is no step');
    forbid('comment', 'a line that is no comment');
  });

  return { violations, seen };
}

module.exports = { checkFile, placeholders, has };
