// Resolves the @tally/* path aliases of tsconfig.json against the compiled output in dist/.
const path = require('node:path');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../tsconfig.json');
tsConfigPaths.register({ baseUrl: path.join(__dirname, '..', 'dist'), paths: compilerOptions.paths });
