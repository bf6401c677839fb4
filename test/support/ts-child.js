// Lets a child `node -r ./test/support/ts-child.js file.ts` run the repository's TypeScript without a build.
require('reflect-metadata');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../../tsconfig.json');

const root = path.join(__dirname, '..', '..');

const options = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};

/**
 * Each file's JavaScript, kept by the hash of its path and source: the crash and restart suites
 * start Tally children dozens of times, and transpiling the whole app took most of each start.
 * A file is written whole under a name of its own and renamed, so children starting together
 * never read half of one.
 */
const cacheDir = writableDir(path.join(root, 'node_modules', '.cache', 'tally-ts-child')) ?? writableDir(path.join(os.tmpdir(), 'tally-ts-child'));
const salt = `${ts.version}\n${JSON.stringify(options)}\n`;

function writableDir(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}

function transpiled(filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const cached = path.join(cacheDir, `${crypto.createHash('sha256').update(salt).update(filename).update('\n').update(source).digest('hex')}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: filename });
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(partial, outputText);
    fs.renameSync(partial, cached);
    return outputText;
  }
}

require.extensions['.ts'] = (module, filename) => module._compile(transpiled(filename), filename);

tsConfigPaths.register({ baseUrl: root, paths: compilerOptions.paths });
