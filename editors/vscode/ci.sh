#!/usr/bin/env bash
# CI for the VS Code extension: clean install, the tests, and the .vsix built and checked (Node.js 20 or newer, npm).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "error: the VS Code extension's CI needs Node.js 20 or newer and npm (node and npm on the PATH)" >&2
  exit 1
fi
echo "== editors/vscode: node $(node --version), npm $(npm --version)"
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  echo "error: the extension's tools need Node.js 20 or newer" >&2
  exit 1
fi

echo "== editors/vscode: npm ci"
npm ci --no-audit --no-fund

echo "== editors/vscode: npm test (the grammar on every bundled scenario file, the snippets, the manifest, the client)"
npm test

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
version="$(node -p 'require("./package.json").version')"
vsix="$out/deckspec-$version.vsix"

echo "== editors/vscode: vsce package"
npx --no -- vsce package --out "$vsix" </dev/null

echo "== editors/vscode: the .vsix holds the extension and nothing of the tests or tools"
# A .vsix is a zip: its file names are read from the zip's central directory, with no unzip needed.
node - "$vsix" <<'EOF'
const fs = require('node:fs');
const file = process.argv[2];
const zip = fs.readFileSync(file);
let end = zip.length - 22;
while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
if (end < 0) throw new Error(`${file} is not a zip`);
const count = zip.readUInt16LE(end + 10);
let at = zip.readUInt32LE(end + 16);
const names = new Set();
for (let i = 0; i < count; i++) {
  if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: a broken central directory`);
  const nameLength = zip.readUInt16LE(at + 28);
  names.add(zip.toString('utf8', at + 46, at + 46 + nameLength));
  at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
}
const manifest = require('./package.json');
const inside = (p) => 'extension/' + p.replace(/^\.\//, '');
const required = [
  'extension/package.json',
  inside(manifest.main),
  'extension/client/server.js',
  inside(manifest.contributes.grammars[0].path),
  inside(manifest.contributes.languages[0].configuration),
  ...Object.keys(manifest.dependencies).map((d) => `extension/node_modules/${d}/package.json`),
];
const missing = required.filter((p) => !names.has(p));
const unwanted = [...names].filter((p) =>
  /^extension\/(test|\.git|ci\.sh|.*\.vsix$)/.test(p) ||
  Object.keys(manifest.devDependencies).some((d) => p.startsWith(`extension/node_modules/${d}/`)),
);
if (missing.length || unwanted.length) {
  console.error(`${file}:\n  missing: ${missing.join(', ') || 'none'}\n  not wanted: ${unwanted.join(', ') || 'none'}`);
  process.exit(1);
}
console.log(`${file.split('/').pop()}: ${names.size} files, with ${required.join(', ')}`);
EOF
