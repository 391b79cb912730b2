// Checks that package.json, the grammar, the language configuration and the client agree with each other and load.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const oniguruma = require('vscode-oniguruma');
const { EXTENSION, manifest, readGrammar, loadOniguruma } = require('./tokenizer');

const inExtension = (relative) => path.join(EXTENSION, relative);

/** The language configuration, read as VS Code reads it (JSON with `//` comment lines). */
function readLanguageConfiguration(file) {
  const text = fs.readFileSync(file, 'utf8');
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
}

/** The smallest version a `^1.2.3` or `>=1.2.3` range accepts, as [major, minor, patch]. */
function lowest(range) {
  const m = /^(?:\^|>=|~)?\s*(\d+)\.(\d+)\.(\d+)/.exec(range);
  assert.ok(m, `cannot read the version range ${range}`);
  return m.slice(1).map(Number);
}

function atLeast(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

test('package.json names the extension as vsce needs it', () => {
  assert.equal(manifest.name, 'deckspec');
  assert.equal(manifest.publisher, 'deckspec');
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.ok(manifest.engines?.vscode, 'engines.vscode is missing');
  assert.ok(manifest.repository?.url, 'repository.url is missing (vsce would ask)');
  assert.ok(fs.existsSync(inExtension('LICENSE')), 'LICENSE is missing (vsce would ask)');
  assert.ok(fs.existsSync(inExtension('README.md')), 'README.md is missing');
});

test('the language, its grammar and its configuration agree', () => {
  const [language] = manifest.contributes.languages;
  assert.equal(language.id, 'deckspec-feature');
  assert.ok(language.aliases.includes('deckspec scenario'));
  assert.deepEqual(language.extensions, ['.feature']);
  assert.ok(fs.existsSync(inExtension(language.configuration)), `${language.configuration} is missing`);

  const [grammar] = manifest.contributes.grammars;
  assert.equal(grammar.language, language.id);
  assert.ok(fs.existsSync(inExtension(grammar.path)), `${grammar.path} is missing`);
  const raw = readGrammar();
  assert.equal(raw.scopeName, grammar.scopeName, 'the grammar file and package.json give different scope names');
});

test('the language configuration: # comments, brackets, auto-closed quotes and doc strings', () => {
  const config = readLanguageConfiguration(inExtension(manifest.contributes.languages[0].configuration));
  assert.equal(config.comments.lineComment, '#');
  assert.ok(config.brackets.some(([open, close]) => open === '[' && close === ']'));
  const pairs = config.autoClosingPairs.map((p) => `${p.open}${p.close}`);
  assert.ok(pairs.includes('""'), 'quotes are not auto-closed');
  assert.ok(pairs.includes('""""""'), 'doc strings are not auto-closed');
  const word = new RegExp(config.wordPattern, 'u');
  assert.equal(word.exec('@rule:CAM-SNAP-5')[0], 'rule', 'a tag word');
  assert.equal(word.exec('CAM-SNAP-5 x')[0], 'CAM-SNAP-5', 'a rule id is one word');
  assert.equal(word.exec("ann's")[0], 'ann');
  assert.equal(word.exec('10♥,')[0], '10♥');
});

test('activation, commands and settings', () => {
  assert.ok(manifest.activationEvents.includes('onLanguage:deckspec-feature'));
  assert.ok(manifest.activationEvents.includes('workspaceContains:rules/*/variant.yaml'));
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.ok(commands.includes('deckspec.restartServer'));
  const client = fs.readFileSync(inExtension(manifest.main), 'utf8');
  for (const command of commands) {
    assert.ok(client.includes(`'${command}'`), `the client does not register ${command}`);
  }
  const settings = manifest.contributes.configuration.properties;
  assert.equal(settings['deckspec.path'].default, 'deckspec');
  assert.equal(settings['deckspec.rulesDir'].default, 'rules');
  assert.deepEqual(settings['deckspec.trace.server'].enum, ['off', 'messages', 'verbose']);
});

test('engines.vscode is at least what vscode-languageclient needs', () => {
  const needed = require('vscode-languageclient/package.json').engines.vscode;
  assert.ok(
    atLeast(lowest(manifest.engines.vscode), lowest(needed)),
    `engines.vscode is ${manifest.engines.vscode} but vscode-languageclient needs ${needed}`,
  );
});

test('the client files parse (node --check)', () => {
  const dir = path.dirname(inExtension(manifest.main));
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes(path.basename(manifest.main)), `${manifest.main} is missing`);
  for (const file of files) {
    const run = spawnSync(process.execPath, ['--check', path.join(dir, file)], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${file}: ${run.stderr}`);
  }
});

/** Every rule of the grammar (nested ones included), with where it is. */
function rules(grammar) {
  const found = [];
  const visit = (rule, where) => {
    if (!rule || typeof rule !== 'object') return;
    found.push({ rule, where });
    (rule.patterns ?? []).forEach((p, i) => visit(p, `${where}.patterns[${i}]`));
    for (const key of ['captures', 'beginCaptures', 'endCaptures']) {
      for (const [n, capture] of Object.entries(rule[key] ?? {})) visit(capture, `${where}.${key}[${n}]`);
    }
  };
  grammar.patterns.forEach((p, i) => visit(p, `patterns[${i}]`));
  for (const [name, rule] of Object.entries(grammar.repository)) visit(rule, `repository.${name}`);
  return found;
}

test('every include of the grammar names a rule of its repository', () => {
  const grammar = readGrammar();
  for (const { rule, where } of rules(grammar)) {
    if (rule.include) {
      assert.match(rule.include, /^#/, `${where}: ${rule.include} is not a local include`);
      assert.ok(grammar.repository[rule.include.slice(1)], `${where}: ${rule.include} is not in the repository`);
    }
  }
});

test('every regex of the grammar compiles in Oniguruma', async () => {
  await loadOniguruma();
  for (const { rule, where } of rules(readGrammar())) {
    for (const key of ['match', 'begin', 'end']) {
      if (typeof rule[key] !== 'string') continue;
      assert.doesNotThrow(() => new oniguruma.OnigScanner([rule[key]]).dispose(), `${where}.${key}: ${rule[key]}`);
    }
  }
});

test('every scope the grammar names ends with .deckspec-feature', () => {
  for (const { rule, where } of rules(readGrammar())) {
    for (const key of ['name', 'contentName']) {
      if (rule[key] === undefined) continue;
      assert.ok(rule[key].endsWith('.deckspec-feature'), `${where}.${key}: ${rule[key]}`);
    }
  }
});
