// The tools people point at an OpenAPI document, which are ES modules that jest cannot load.
// `node openapi-tools-child.mjs a.json b.json --types a.json` lints every document with Redocly's
// recommended rules and writes openapi-typescript's types of those after --types beside them
// (a.json → a.ts); it prints one JSON line, the problems found in each document. The types leave
// a request field with a `default` optional: by default the tool requires it, as in responses.
import { readFile, writeFile } from 'node:fs/promises';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';

const args = process.argv.slice(2);
const typed = args.includes('--types') ? args.slice(args.indexOf('--types') + 1) : [];
const config = await createConfig({ extends: ['recommended'] });
const problems = {};
for (const file of new Set(args.filter((arg) => arg !== '--types'))) {
  const source = await readFile(file, 'utf8');
  const found = await lintFromString({ source, absoluteRef: file, config });
  problems[file] = found.map(({ ruleId, severity, message, location }) => ({ ruleId, severity, message, at: location.map(({ pointer }) => pointer) }));
  if (typed.includes(file)) await writeFile(file.replace(/\.json$/, '.ts'), astToString(await openapiTS(JSON.parse(source), { defaultNonNullable: false })));
}
console.log(JSON.stringify(problems));
