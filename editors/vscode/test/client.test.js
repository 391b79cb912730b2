// Checks the client: how it finds deckspec and what it runs, and its activation against stand-ins for VS Code and vscode-languageclient.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const { EXTENSION, manifest } = require('./tokenizer');
const { findExecutable, resolveRulesDir, serverCommand, documentSelector } = require('../client/server');

const posix = process.platform !== 'win32';

/** A temporary folder with a fake `deckspec` (executable) and `not-executable` beside it, and a `rules/` folder. */
function sandbox(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckspec-vscode-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'deckspec'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'not-executable'), 'text\n', { mode: 0o644 });
  fs.mkdirSync(path.join(dir, 'rules'));
  return { dir, bin, deckspec: path.join(bin, 'deckspec') };
}

test('findExecutable looks a name up on the PATH', (t) => {
  const { bin, deckspec } = sandbox(t);
  const env = { PATH: ['/nonexistent', bin].join(path.delimiter) };
  assert.equal(findExecutable('deckspec', { env }), deckspec);
  assert.equal(findExecutable('deckspec-missing', { env }), null);
  assert.equal(findExecutable('', { env }), null);
  if (posix) assert.equal(findExecutable('not-executable', { env }), null, 'a file without the execute bit');
});

test('findExecutable resolves a path against the workspace folder', (t) => {
  const { dir, deckspec } = sandbox(t);
  assert.equal(findExecutable('./bin/deckspec', { cwd: dir, env: {} }), deckspec);
  assert.equal(findExecutable('bin/deckspec', { cwd: dir, env: {} }), deckspec);
  assert.equal(findExecutable(deckspec, { cwd: os.tmpdir(), env: {} }), deckspec);
  assert.equal(findExecutable('./bin/nothing', { cwd: dir, env: {} }), null);
  assert.equal(findExecutable('./bin', { cwd: dir, env: {} }), null, 'a folder is not an executable');
});

test('findExecutable adds the PATHEXT extensions on Windows, where no execute bit is needed', (t) => {
  const { bin } = sandbox(t);
  fs.writeFileSync(path.join(bin, 'tool.exe'), '', { mode: 0o644 });
  const env = { PATH: bin, PATHEXT: '.COM;.EXE' };
  assert.equal(findExecutable('tool', { env, platform: 'win32' }), path.join(bin, 'tool.exe'));
  assert.equal(findExecutable('tool.exe', { env, platform: 'win32' }), path.join(bin, 'tool.exe'));
  if (posix) assert.equal(findExecutable('tool', { env, platform: 'linux' }), null);
});

test('the server runs as `<deckspec> lsp --rules <folder>/<rulesDir>` in the workspace folder', () => {
  const folder = path.resolve('/work/project');
  assert.deepEqual(serverCommand({ executable: '/bin/deckspec', folder, rulesDir: 'rules' }), {
    command: '/bin/deckspec',
    args: ['lsp', '--rules', path.join(folder, 'rules')],
    cwd: folder,
    rules: path.join(folder, 'rules'),
  });
  assert.equal(resolveRulesDir(folder, undefined), path.join(folder, 'rules'));
  assert.equal(resolveRulesDir(folder, '  '), path.join(folder, 'rules'));
  assert.equal(resolveRulesDir(folder, 'games/variants'), path.join(folder, 'games', 'variants'));
  assert.equal(resolveRulesDir(folder, path.resolve('/elsewhere/rules')), path.resolve('/elsewhere/rules'));
});

test('the document selector: scenario files, Rhai scripts, the YAML of the rules folder', () => {
  const base = [
    { scheme: 'file', language: 'deckspec-feature' },
    { scheme: 'file', pattern: '**/*.rhai' },
    { scheme: 'file', pattern: '**/rules/**/*.yaml' },
  ];
  assert.deepEqual(documentSelector(path.resolve('/p/rules')), base);
  const custom = documentSelector(path.resolve('/p/my*variants'));
  assert.deepEqual(custom.slice(0, 3), base);
  assert.equal(custom.length, 4);
  assert.match(custom[3].pattern, /my\[\*\]variants\/\*\*\/\*\.yaml$/);
  assert.equal(custom[3].scheme, 'file');
  assert.equal(base[0].language, manifest.contributes.languages[0].id);
});

/** Stand-ins for `vscode` and `vscode-languageclient/node`, recording what the client does with them. */
function fakes({ folder, settings, startError }) {
  const record = { errors: [], commands: {}, clients: [], log: [] };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
      record.clients.push(this);
    }
    async start() {
      if (startError) throw startError;
      this.started = true;
    }
    async stop() {
      this.stopped = true;
    }
    async dispose() {
      this.stopped = true;
    }
  }
  const vscode = {
    window: {
      createOutputChannel: (name) => ({ name, appendLine: (line) => record.log.push(line), show() {}, dispose() {} }),
      showErrorMessage: (message, ...items) => {
        record.errors.push({ message, items });
        return Promise.resolve(undefined);
      },
    },
    commands: {
      registerCommand: (id, handler) => {
        record.commands[id] = handler;
        return { dispose() {} };
      },
      executeCommand: async () => undefined,
    },
    workspace: {
      workspaceFolders: folder ? [{ name: 'project', index: 0, uri: { scheme: 'file', fsPath: folder } }] : undefined,
      getConfiguration: (section) => {
        assert.equal(section, 'deckspec');
        return { get: (key) => settings[key] };
      },
      onDidChangeConfiguration: () => ({ dispose() {} }),
      onDidChangeWorkspaceFolders: () => ({ dispose() {} }),
    },
  };
  const languageclient = { LanguageClient, RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 } };
  return { record, modules: { vscode, 'vscode-languageclient/node': languageclient } };
}

/** The client module loaded afresh with `modules` standing in for those names. */
function loadClient(t, modules) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (Object.hasOwn(modules, request)) return modules[request];
    return load.call(this, request, ...rest);
  };
  t.after(() => {
    Module._load = load;
  });
  const main = require.resolve(path.join(EXTENSION, manifest.main));
  delete require.cache[main];
  return require(main);
}

const context = () => ({ subscriptions: [] });

test('activation starts `deckspec lsp --rules …` in the workspace folder, with the document selector', async (t) => {
  const { dir, deckspec } = sandbox(t);
  const { record, modules } = fakes({ folder: dir, settings: { path: './bin/deckspec', rulesDir: 'rules' } });
  const extension = loadClient(t, modules);
  const ctx = context();
  await extension.activate(ctx);
  assert.deepEqual(record.errors, []);
  assert.equal(record.clients.length, 1);
  const [client] = record.clients;
  assert.equal(client.id, 'deckspec', 'the id makes vscode-languageclient read deckspec.trace.server');
  assert.deepEqual(client.serverOptions, { command: deckspec, args: ['lsp', '--rules', path.join(dir, 'rules')], options: { cwd: dir } });
  assert.deepEqual(client.clientOptions.documentSelector, documentSelector(path.join(dir, 'rules')));
  assert.equal(client.clientOptions.outputChannel.name, 'deckspec');
  assert.ok(client.started);
  assert.ok(ctx.subscriptions.length >= 2, 'the output channel and the command are disposed with the extension');

  await record.commands['deckspec.restartServer']();
  assert.equal(record.clients.length, 2);
  assert.ok(client.stopped, 'restart stops the running server first');
  assert.ok(record.clients[1].started);

  await extension.deactivate();
  assert.ok(record.clients[1].stopped);
});

test('a deckspec that is not found is reported with the setting to change, and nothing is started', async (t) => {
  const { dir } = sandbox(t);
  const { record, modules } = fakes({ folder: dir, settings: { path: './bin/no-such-deckspec', rulesDir: 'rules' } });
  const extension = loadClient(t, modules);
  await extension.activate(context());
  assert.equal(record.clients.length, 0);
  assert.equal(record.errors.length, 1);
  assert.match(record.errors[0].message, /deckspec executable was not found/);
  assert.match(record.errors[0].message, /deckspec\.path/);
  assert.ok(record.errors[0].items.includes('Open Settings'));
});

test('a server that fails to start is reported with the setting to change', async (t) => {
  const { dir } = sandbox(t);
  const error = Object.assign(new Error('spawn ./bin/deckspec ENOENT'), { code: 'ENOENT' });
  const { record, modules } = fakes({ folder: dir, settings: { path: './bin/deckspec' }, startError: error });
  const extension = loadClient(t, modules);
  await extension.activate(context());
  assert.equal(record.errors.length, 1);
  assert.match(record.errors[0].message, /deckspec executable was not found/);
  assert.match(record.errors[0].message, /deckspec\.path/);
});

test('without a workspace folder nothing is started and the output says why', async (t) => {
  const { record, modules } = fakes({ folder: null, settings: {} });
  const extension = loadClient(t, modules);
  await extension.activate(context());
  assert.equal(record.clients.length, 0);
  assert.deepEqual(record.errors, []);
  assert.ok(record.log.some((line) => /workspace folder/.test(line)));
});

test('the real vscode-languageclient/node has what the client takes from it', (t) => {
  // Any property of this stand-in for `vscode` is another stand-in, enough for the module to load.
  const handler = { get: (target, key) => (key in target ? target[key] : (target[key] = new Proxy(function () {}, handler))) };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? new Proxy({}, handler) : load.call(this, request, ...rest);
  };
  t.after(() => {
    Module._load = load;
  });
  const languageclient = require('vscode-languageclient/node');
  assert.equal(typeof languageclient.LanguageClient, 'function');
  assert.equal(languageclient.RevealOutputChannelOn.Never, 4);
});
