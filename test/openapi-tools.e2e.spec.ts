import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { API_VERSIONS, CURRENT_API_VERSION } from '@tally/http';
import { TallyUnderTest } from './support/tally';

/** The version whose document differs most from the newest: a typed client is generated for both. */
const OLDEST = API_VERSIONS[0];

/**
 * A small client of the kind people write on openapi-typescript's types: paths, bodies and answers
 * typed by the document. Each `@ts-expect-error` is a use the document forbids, which must not compile.
 * Its types are generated with `defaultNonNullable: false` (docs/decisions.md).
 */
const CLIENT = `
import type { components, paths } from './${CURRENT_API_VERSION}';
import type { paths as oldestPaths } from './${OLDEST}';

type Method = 'get' | 'post' | 'patch' | 'delete';
type BodyOf<T, P extends keyof T, M extends keyof T[P]> = T[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type AnswerOf<T, P extends keyof T, M extends keyof T[P]> = T[P][M] extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never;

function client<T>(base: string, key: string, version: string) {
  return async <P extends keyof T & string, M extends keyof T[P] & Method>(method: M, path: P, body?: BodyOf<T, P, M>, params: Record<string, string> = {}): Promise<AnswerOf<T, P, M>> => {
    const url = base + path.replace(/\\{([a-z_]+)\\}/g, (_, name: string) => encodeURIComponent(params[name]));
    const headers = { Authorization: \`Bearer \${key}\`, 'Content-Type': 'application/json', 'Service-Version': version };
    const response = await fetch(url, { method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await response.json()) as AnswerOf<T, P, M>;
  };
}

export async function billAda(base: string, key: string): Promise<string[]> {
  const tally = client<paths>(base, key, '${CURRENT_API_VERSION}');
  const customer = await tally('post', '/v1/customers', { email: 'ada@example.com', name: 'Ada', metadata: { crm_id: '42' } });
  const invoice = await tally('post', '/v1/invoices', { customer_id: customer.id, currency: 'EUR', days_until_due: 30, lines: [{ description: 'Workshop', quantity: '2', unit_amount: '450.00' }] });
  const payments: string[] = invoice.payments;
  const tax: string = invoice.tax;
  await tally('post', '/v1/coupons', { code: 'SPRING25', duration: 'repeating', duration_in_periods: 3, percent_off: '25' });
  const page = await tally('get', '/v1/invoices');
  const legacy = client<oldestPaths>(base, key, '${OLDEST}');
  const old = await legacy('get', '/v1/invoices/{id}', undefined, { id: invoice.id });
  const latest: string | null = old.payments;
  const oldTax: string | undefined = old.tax;
  // @ts-expect-error before 2025-10-01 an invoice's payments are its latest payment's id
  const list: string[] = old.payments;
  return [...payments, tax, ...page.data.map((item) => item.total), latest ?? '', oldTax ?? '', ...list];
}

// @ts-expect-error an invoice takes due_at or days_until_due, not both
export const both: components['schemas']['CreateInvoiceDto'] = { customer_id: 'cus_1', currency: 'EUR', due_at: '2026-06-01T00:00:00Z', days_until_due: 30 };
// @ts-expect-error a coupon takes percent_off or amount_off with currency
export const twice: components['schemas']['CreateCouponDto'] = { code: 'X', duration: 'once', percent_off: '10', amount_off: '5.00', currency: 'EUR' };
// @ts-expect-error a plan's interval rule does not stand in for its required fields
export const empty: components['schemas']['CreatePlanDto'] = {};
`;

const run = promisify(execFile);

describe('the OpenAPI document, read by the tools people point at it', () => {
  let tally: TallyUnderTest;
  let folder: string;
  let problems: Record<string, unknown[]>;

  const file = (version: string) => join(folder, `${version}.json`);

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    folder = mkdtempSync(join(tmpdir(), 'tally-openapi-'));
    for (const version of API_VERSIONS) writeFileSync(file(version), (await tally.http().get(`/openapi.json?version=${version}`).expect(200)).text);
    const { stdout } = await run(process.execPath, ['test/support/openapi-tools-child.mjs', ...API_VERSIONS.map(file), '--types', file(CURRENT_API_VERSION), file(OLDEST)], {
      cwd: join(__dirname, '..'),
      maxBuffer: 16 * 1024 * 1024,
    });
    problems = JSON.parse(stdout.trim().split('\n').at(-1)!);
  }, 180_000);

  afterAll(async () => {
    await tally.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(API_VERSIONS)('passes Redocly’s recommended rules without an error or a warning (%s)', (version) => {
    expect(problems[file(version)]).toEqual([]);
  });

  it('generates, with openapi-typescript, types on which a small client compiles, and a use the document forbids does not', () => {
    const client = join(folder, 'client.ts');
    writeFileSync(client, CLIENT);
    const program = ts.createProgram([client], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true, types: ['node'], typeRoots: [join(__dirname, '..', 'node_modules', '@types')] });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
