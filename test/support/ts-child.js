// Lets a child `node -r ./test/support/ts-child.js file.ts` run the repository's TypeScript without a build.
require('reflect-metadata');
const fs = require('node:fs');
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

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions: options, fileName: filename });
  module._compile(outputText, filename);
};

tsConfigPaths.register({ baseUrl: root, paths: compilerOptions.paths });
