// Tokenizes every bundled scenario file (../../spec-tests, found recursively) and checks each line's scopes against what deckspec reads there.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tokenize, createTokenizer, readGrammar, EXTENSION } = require('./tokenizer');
const { checkFile } = require('./properties');

const SPEC_TESTS = path.resolve(EXTENSION, '..', '..', 'spec-tests');

/** Every `.feature` file under `dir`, at any depth, sorted. */
function featureFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return featureFiles(full);
      return entry.isFile() && entry.name.endsWith('.feature') ? [full] : [];
    })
    .sort();
}

const files = featureFiles(SPEC_TESTS);

test('the bundled scenario files are found', () => {
  assert.ok(fs.statSync(SPEC_TESTS).isDirectory(), `${SPEC_TESTS} is not a folder`);
  assert.ok(files.length > 0, `no .feature file under ${SPEC_TESTS}`);
  // The search goes below the variants' own folders (spec-tests/invalid/variants/<case>/…).
  assert.ok(
    files.some((f) => path.relative(SPEC_TESTS, f).split(path.sep).length > 2),
    'no scenario file was found deeper than spec-tests/<folder>/',
  );
});

const total = { step: 0, header: 0, ruleTag: 0, comment: 0, docLine: 0, row: 0, headerRow: 0, placeholder: 0, card: 0, action: 0 };

for (const file of files) {
  const name = path.relative(SPEC_TESTS, file).split(path.sep).join('/');
  test(`spec-tests/${name}`, async () => {
    const { violations, seen } = checkFile(await tokenize(fs.readFileSync(file, 'utf8')));
    for (const key of Object.keys(total)) total[key] += seen[key];
    assert.equal(violations.length, 0, `${violations.length} lines of ${name} are tokenized wrong:\n  ${violations.slice(0, 20).join('\n  ')}`);
  });
}

test('every kind of line was met and checked across the bundled files', () => {
  for (const [kind, count] of Object.entries(total)) {
    assert.ok(count > 0, `no ${kind} was checked in the bundled files: the checks would pass on nothing`);
  }
});

// The checks fail on a grammar that gets lines wrong: each broken copy below must be caught in
// some bundled file.
const brokenGrammars = {
  'without step lines': (g) => {
    g.patterns = g.patterns.filter((p) => p.include !== '#step');
  },
  'whose step keywords are plain text': (g) => {
    for (const p of g.repository.step.patterns) (p.captures ?? p.beginCaptures)[1].name = 'meta.keyword.deckspec-feature';
  },
  'with doc strings that never close': (g) => {
    g.repository['doc-string'].end = '(?!)';
  },
  'with doc strings one line long': (g) => {
    g.repository['doc-string'] = { match: g.repository['doc-string'].begin, name: 'string.quoted.docstring.deckspec-feature' };
  },
  'without rule ids in tags': (g) => {
    g.repository.tags.patterns.shift();
  },
  'without table rows': (g) => {
    g.repository['table-row'] = { match: '(?!)' };
  },
  'without the header row of Examples': (g) => {
    g.repository.examples.patterns[1].patterns.shift();
  },
  'with comments as plain text': (g) => {
    g.repository.comment.captures[1].name = 'string.other.deckspec-feature';
  },
  'without headers': (g) => {
    g.repository.headers.patterns.pop();
  },
  'without cards': (g) => {
    g.repository.card.patterns = [];
  },
  'with a card for every word': (g) => {
    g.repository.card.patterns.push({ match: '\\b[A-Za-z]+\\b', name: 'constant.other.card.deckspec-feature' });
  },
  'without actions': (g) => {
    g.repository['step-forms'].patterns = g.repository['step-forms'].patterns.filter((p) => !/does\|did/.test(p.match ?? ''));
  },
  'without placeholders': (g) => {
    g.repository.placeholder = { match: '(?!)' };
  },
};

for (const [what, breakIt] of Object.entries(brokenGrammars)) {
  test(`the checks catch a grammar ${what}`, async () => {
    const grammar = readGrammar();
    breakIt(grammar);
    const broken = await createTokenizer(grammar);
    const caught = files.some((file) => checkFile(broken(fs.readFileSync(file, 'utf8'))).violations.length > 0);
    assert.ok(caught, `a grammar ${what} passed the checks on every bundled file`);
  });
}
