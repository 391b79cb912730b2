// How the extension finds the deckspec executable, what it runs and which documents the server is given; plain Node (no VS Code API), so the tests load it.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The language id of scenario files, as package.json contributes it. */
const FEATURE_LANGUAGE = 'deckspec-feature';

/** `~` or `~/x` to the home folder; anything else as it is. */
function expandHome(p) {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(os.homedir(), p.slice(2));
  return p;
}

/** Whether `command` names a file (`./target/debug/deckspec`, `/usr/bin/deckspec`, `~/bin/deckspec`) rather than a program on the PATH. */
function isPathLike(command) {
  return command.includes('/') || command.includes('\\') || command.startsWith('~') || path.isAbsolute(command);
}

function isExecutableFile(file, platform) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file `command` runs: a path (resolved against `cwd`) if it is one, else the first match on
 * the PATH (with the PATHEXT extensions on Windows); null when there is none.
 */
function findExecutable(command, { cwd = process.cwd(), env = process.env, platform = process.platform } = {}) {
  if (typeof command !== 'string' || command.trim() === '') return null;
  command = command.trim();
  const extensions =
    platform === 'win32'
      ? ['', ...(env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((e) => e.toLowerCase())]
      : [''];
  const candidates = (base) => extensions.map((e) => base + e);
  if (isPathLike(command)) {
    const file = path.resolve(cwd, expandHome(command));
    return candidates(file).find((f) => isExecutableFile(f, platform)) ?? null;
  }
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const found = candidates(path.join(dir, command)).find((f) => isExecutableFile(f, platform));
    if (found) return found;
  }
  return null;
}

/** The rules folder: `rulesDir` (default `rules`) resolved against the workspace folder. */
function resolveRulesDir(folder, rulesDir) {
  const dir = typeof rulesDir === 'string' && rulesDir.trim() !== '' ? rulesDir.trim() : 'rules';
  return path.resolve(folder, expandHome(dir));
}

/** What the extension runs: `<executable> lsp --rules <rules folder>` in the workspace folder. */
function serverCommand({ executable, folder, rulesDir }) {
  const rules = resolveRulesDir(folder, rulesDir);
  return { command: executable, args: ['lsp', '--rules', rules], cwd: folder, rules };
}

/** `text` as a glob that matches it: `/` as the separator, and `*`, `?`, `{` and `}` each in a character class. */
function globLiteral(text) {
  return text.split(path.sep).join('/').replace(/[{}*?]/g, '[$&]');
}

/**
 * The documents the server is given: scenario files, Rhai scripts and the YAML files of a rules
 * folder (any language id, so `yaml` or plain text). A rules folder not named `rules` is added by
 * its own path.
 */
function documentSelector(rules) {
  const selector = [
    { scheme: 'file', language: FEATURE_LANGUAGE },
    { scheme: 'file', pattern: '**/*.rhai' },
    { scheme: 'file', pattern: '**/rules/**/*.yaml' },
  ];
  if (rules && path.basename(rules) !== 'rules') {
    selector.push({ scheme: 'file', pattern: `${globLiteral(rules)}/**/*.yaml` });
  }
  return selector;
}

module.exports = {
  FEATURE_LANGUAGE,
  findExecutable,
  resolveRulesDir,
  serverCommand,
  documentSelector,
};
