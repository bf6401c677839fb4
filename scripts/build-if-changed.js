// Compiles to dist/ only when a source or build setting changed since the last build, so that a
// second `npm start` (or `npm run tenant:create`) starts at once. tsc builds incrementally when
// it does run (tsconfig.build.json keeps its build info in dist/).
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['apps', 'libs', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestChange(entry) {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = inputs.map((input) => path.join(root, input)).filter(existsSync).some((input) => newestChange(input) > built);
if (changed) {
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
