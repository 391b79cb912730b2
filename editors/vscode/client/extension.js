// The VS Code side of deckspec: runs `deckspec lsp --rules <rulesDir>` in the workspace folder and connects it to scenario, Rhai and rules YAML files.
'use strict';

const fs = require('node:fs');
const vscode = require('vscode');
const { LanguageClient, RevealOutputChannelOn } = require('vscode-languageclient/node');
const { findExecutable, resolveRulesDir, serverCommand, documentSelector } = require('./server');

const SETTINGS_THAT_RESTART = ['deckspec.path', 'deckspec.rulesDir'];

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output;
/** Starts and stops one after another, never two at once. */
let queue = Promise.resolve();

function log(line) {
  output?.appendLine(line);
}

/** The workspace folder the server runs in: the first whose rules folder exists, else the first. */
function pickFolder() {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const local = folders.filter((f) => f.uri.scheme === 'file');
  const withRules = local.find((f) => {
    const rulesDir = vscode.workspace.getConfiguration('deckspec', f.uri).get('rulesDir');
    return fs.existsSync(resolveRulesDir(f.uri.fsPath, rulesDir));
  });
  return withRules ?? local[0];
}

async function openSettingsOrOutput(choice) {
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'deckspec.path');
  } else if (choice === 'Show Output') {
    output?.show(true);
  }
}

function reportNotFound(configured) {
  const message =
    `deckspec: the deckspec executable was not found ("${configured}"). ` +
    'Install deckspec, or set the setting deckspec.path to the deckspec executable, then run "deckspec: Restart Language Server".';
  log(message);
  vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output').then(openSettingsOrOutput);
}

function reportStartFailure(executable, error) {
  const reason = error instanceof Error ? error.message : String(error);
  const notFound = /ENOENT/.test(reason);
  const message = notFound
    ? `deckspec: the deckspec executable was not found ("${executable}"). Set the setting deckspec.path to the deckspec executable.`
    : `deckspec: the language server did not start with "${executable}" (${reason}). ` +
      'Check that the setting deckspec.path names a deckspec that has the `lsp` command.';
  log(message);
  vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output').then(openSettingsOrOutput);
}

async function start() {
  const folder = pickFolder();
  if (!folder) {
    log('No local workspace folder is open, so the language server is not started: open the folder of a rules project.');
    return;
  }
  const cwd = folder.uri.fsPath;
  const config = vscode.workspace.getConfiguration('deckspec', folder.uri);
  const configured = (config.get('path') || 'deckspec').trim() || 'deckspec';
  const executable = findExecutable(configured, { cwd });
  if (!executable) {
    reportNotFound(configured);
    return;
  }
  const command = serverCommand({ executable, folder: cwd, rulesDir: config.get('rulesDir') });
  log(`Starting ${command.command} ${command.args.join(' ')} (in ${cwd})`);
  const serverOptions = { command: command.command, args: command.args, options: { cwd } };
  const clientOptions = {
    documentSelector: documentSelector(command.rules),
    workspaceFolder: folder,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  const candidate = new LanguageClient('deckspec', 'deckspec', serverOptions, clientOptions);
  try {
    await candidate.start();
    client = candidate;
  } catch (error) {
    reportStartFailure(executable, error);
    await candidate.dispose().catch(() => undefined);
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop().catch((error) => log(`Stopping the language server failed: ${error}`));
  }
}

/** Stops the server if it runs, then starts it again with the current settings. */
function restart() {
  queue = queue.then(stop).then(start).catch((error) => log(`Restarting the language server failed: ${error}`));
  return queue;
}

function activate(context) {
  output = vscode.window.createOutputChannel('deckspec');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('deckspec.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (SETTINGS_THAT_RESTART.some((setting) => event.affectsConfiguration(setting))) restart();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (!client) restart();
    }),
  );
  // Activation waits for the first start (a spawn and the initialize exchange), not for a failure's message.
  return restart();
}

function deactivate() {
  queue = queue.then(stop);
  return queue;
}

module.exports = { activate, deactivate };
