// Test helper: loads the extension's TextMate grammar (or a changed copy) with vscode-textmate and vscode-oniguruma, and tokenizes text.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const textmate = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const EXTENSION = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION, 'package.json'), 'utf8'));
const contributed = manifest.contributes.grammars[0];
const GRAMMAR_PATH = path.join(EXTENSION, contributed.path);
const SCOPE = contributed.scopeName;

let onigLib = null;

/** The regex engine vscode-textmate runs on, as VS Code uses it (started once). */
function loadOniguruma() {
  if (!onigLib) {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    const bytes = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    onigLib = oniguruma.loadWASM(bytes).then(() => ({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }));
  }
  return onigLib;
}

/** The grammar file as JSON. */
function readGrammar() {
  return JSON.parse(fs.readFileSync(GRAMMAR_PATH, 'utf8'));
}

/**
 * A tokenizer for `rawGrammar` (default: the grammar file, read as VS Code reads it). It splits
 * text at `\r\n`, `\n` or `\r`, as deckspec does, and gives one entry a line,
 * `{ text, tokens: [{ start, end, text, scopes }] }`, the scopes without the grammar's own.
 */
async function createTokenizer(rawGrammar) {
  const registry = new textmate.Registry({
    onigLib: loadOniguruma(),
    loadGrammar: async (scopeName) => {
      if (scopeName !== SCOPE) return null;
      if (rawGrammar) return rawGrammar;
      return textmate.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH);
    },
  });
  const grammar = await registry.loadGrammar(SCOPE);
  if (!grammar) throw new Error(`the grammar ${SCOPE} did not load from ${GRAMMAR_PATH}`);
  return (text) => {
    let state = textmate.INITIAL;
    const lines = [];
    for (const line of text.split(/\r\n|\n|\r/)) {
      const result = grammar.tokenizeLine(line, state);
      if (result.stoppedEarly) throw new Error(`tokenizing stopped early on: ${line}`);
      state = result.ruleStack;
      const tokens = result.tokens
        .map((t) => ({ start: t.startIndex, end: Math.min(t.endIndex, line.length), scopes: t.scopes.filter((s) => s !== SCOPE) }))
        .filter((t) => t.end > t.start)
        .map((t) => ({ ...t, text: line.slice(t.start, t.end) }));
      lines.push({ text: line, tokens });
    }
    return lines;
  };
}

let shared = null;

/** Tokenizes `text` with the grammar file. */
async function tokenize(text) {
  shared ??= createTokenizer();
  return (await shared)(text);
}

/** The scopes of the character at `column` of a tokenized line (empty when no token covers it). */
function scopesAt(line, column) {
  const token = line.tokens.find((t) => t.start <= column && column < t.end);
  return token ? token.scopes : [];
}

module.exports = { tokenize, createTokenizer, readGrammar, scopesAt, loadOniguruma, EXTENSION, GRAMMAR_PATH, SCOPE, manifest };
