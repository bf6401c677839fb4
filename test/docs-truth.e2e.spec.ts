import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TallyUnderTest } from './support/tally';

/**
 * The capabilities the docs name as not there yet, by the routes the spec gives them: a
 * capability that lands puts its routes in the API document, and this test then fails until the
 * README's status table and the changelog say it works. A name without routes cannot be checked.
 */
const CAPABILITY_ROUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['wallets', ['/v1/wallets', '/v1/customers/{}/wallets']],
  ['refunds', ['/v1/payments/{}/refunds', '/v1/refunds']],
  ['checkout', ['/v1/checkout', '/v1/attach']],
  ['portal', ['/v1/portal']],
  ['data-subject requests', ['/v1/admin/dsr']],
  ['exports', ['/v1/exports']],
  ['affiliates', ['/v1/affiliates', '/v1/payouts']],
  ['several currencies', []],
  ['webhooks', ['/v1/admin/webhook-endpoints']],
  ['usage metering', ['/v1/usage']],
  ['tax providers', []],
]);

const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

/** The README's status table: each row's capability names (before any link or colon), lower case, with its status. */
function statusRows(): { names: string[]; works: boolean }[] {
  const table = read('README.md').split('## Quick start')[0];
  return [...table.matchAll(/^\| (.+?) \| (works|later|coming.*?) \|$/gm)].map(([, capability, status]) => ({
    names: capability
      .split(/[(:]/)[0]
      .split(/,| and /)
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
    works: status === 'works',
  }));
}

describe('what the docs say is built', () => {
  let paths: string[];

  beforeAll(async () => {
    const tally = await TallyUnderTest.start();
    try {
      paths = Object.keys((await tally.http().get('/openapi.json').expect(200)).body.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    } finally {
      await tally.stop();
    }
  }, 120_000);

  const served = (name: string) => (CAPABILITY_ROUTES.get(name) ?? []).filter((prefix) => paths.some((path) => path.startsWith(prefix)));

  it('reads a status table with rows that work and rows that do not', () => {
    const rows = statusRows();
    expect(rows.filter((row) => row.works).length).toBeGreaterThan(10);
    expect(rows.filter((row) => !row.works).length).toBeGreaterThan(0);
  });

  it('names no capability in the README as coming or later while its routes are served, and knows every one it names so', () => {
    for (const { names, works } of statusRows().filter((row) => !row.works)) {
      for (const name of names) {
        expect({ name, known: CAPABILITY_ROUTES.has(name), works }).toEqual({ name, known: true, works });
        expect({ name, served: served(name) }).toEqual({ name, served: [] });
      }
    }
  });

  it('serves the routes of every capability the README says works, where it names a known one', () => {
    for (const { names } of statusRows().filter((row) => row.works)) {
      for (const name of names.filter((n) => CAPABILITY_ROUTES.get(n)?.length)) expect({ name, served: served(name).length > 0 }).toEqual({ name, served: true });
    }
  });

  it('marks nothing in the changelog as not built yet while its routes are served', () => {
    const marks = [...read('docs/versions.md').matchAll(/\*\(not built yet(?:: ([^;)]+))?[^)]*\)\*/g)].map(([, name]) => name?.trim());
    expect(marks.length).toBeGreaterThan(0);
    for (const name of marks) {
      expect({ name, known: name !== undefined && CAPABILITY_ROUTES.has(name) }).toEqual({ name, known: true });
      expect({ name, served: served(name!) }).toEqual({ name, served: [] });
    }
  });
});
