/** One jest project per kind of suite; `npm test` runs them all. */
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    '^' + alias.replace('/*', '/(.*)') + '$',
    '<rootDir>/' + target.replace('/*', '/$1'),
  ]),
);

const base = {
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  moduleNameMapper,
  testEnvironment: 'node',
};

module.exports = {
  // An end-to-end file starts a whole Tally in its beforeAll: seconds on a loaded 2-core machine.
  testTimeout: 30_000,
  // A worker per core, not jest's cores − 1: an end-to-end file spends much of its time waiting (for
  // its Tally's worker, a child's start, a timer), so two files on two cores take about half the time of one after the other.
  maxWorkers: '100%',
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/*.spec.ts'], testPathIgnorePatterns: ['\\.contract\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$'] },
    { ...base, displayName: 'contract', testMatch: ['<rootDir>/libs/**/*.contract.spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e.spec.ts'] },
  ],
};
