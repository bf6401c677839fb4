import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ManualClock, type IdGenerator } from '@tally/kernel';
import { CellRegistry, ID_GENERATOR, PublicUrl, readConfig, type Region } from '@tally/cells';
import { API_VERSIONS, CURRENT_API_VERSION } from '@tally/http';
import { CommandRuntime, Worker } from '@tally/runtime';
import { createJsonLog, LOG_LEVELS, type JsonLog, type LogLevel } from '@tally/observability';
import { TenantAdministration } from '@tally/tenancy';
import { createApp } from '../../apps/api/src/create-app';
import type { AppOptions } from '../../apps/api/src/app.module';
import { dropMongoReadStore, forgetDeadLeases, mongoReadStoreEnv } from './mongo-read-store';
import { VersionedContracts } from './openapi-contract';

export interface TestTenant {
  tenantId: string;
  live: string;
  sandbox: string;
  region: Region;
}

export const OPERATOR_KEY = 'operator-test-secret';

/** The public URL of a Tally under test (TALLY_PUBLIC_URL), unless a test gives its own: every URL it hands out starts with it. */
export const PUBLIC_URL = 'https://tally.test';

/**
 * How long a webhook receiver has to answer under test (TALLY_WEBHOOK_TIMEOUT_MS): the tests'
 * receivers answer at once, and one that never answers is cut off sooner than the spec's 10 s, so
 * that a settle waiting for its attempt ends soon.
 */
export const WEBHOOK_TIMEOUT_MS = 3_000;

/** The log TALLY_TEST_LOG asks for, on stderr (to read why a suite failed on CI), or none. */
function logAskedFor(): JsonLog | false {
  const level = process.env.TALLY_TEST_LOG;
  if (!level) return false;
  if (!LOG_LEVELS.includes(level as LogLevel)) throw new Error(`TALLY_TEST_LOG is one of ${LOG_LEVELS.join(', ')}, not ${level}`);
  return createJsonLog(level as LogLevel, process.stderr);
}

/** Read once per test file, from the first app's `/openapi.json` of every version. */
let contract: Promise<VersionedContracts> | undefined;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One Tally on the embedded profile in a temporary folder, with a manual clock and helpers for
 * tests; with TALLY_TEST_READ_STORE=mongo its read models and leases are in MongoDB (see mongo-read-store).
 */
export class TallyUnderTest {
  private constructor(
    readonly app: NestExpressApplication,
    readonly clock: ManualClock,
    readonly dataDir: string,
    readonly contract: VersionedContracts,
  ) {}

  /** Silent unless a test passes a `logger` to read the log lines, or TALLY_TEST_LOG names a level (`error`: the 5xx's causes on stderr). */
  static async start(options: { dataDir?: string; clock?: ManualClock; logger?: JsonLog; extraProcesses?: AppOptions['extraProcesses']; publicUrl?: string } = {}): Promise<TallyUnderTest> {
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tally-test-'));
    // A folder given is one a test reopens after killing the Tally on it.
    if (options.dataDir) await forgetDeadLeases(dataDir);
    const clock = options.clock ?? new ManualClock('2026-05-01T10:00:00.000Z');
    const config = readConfig({
      TALLY_DATA_DIR: dataDir,
      TALLY_PROFILE: 'embedded',
      TALLY_OPERATOR_KEY: OPERATOR_KEY,
      TALLY_PUBLIC_URL: options.publicUrl ?? PUBLIC_URL,
      TALLY_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      ...mongoReadStoreEnv(dataDir),
    });
    const app = await createApp({ config, worker: 'in-process', clock, extraProcesses: options.extraProcesses }, { logger: options.logger ?? logAskedFor() });
    await app.init();
    contract ??= Promise.all(API_VERSIONS.map(async (version) => [version, (await request(app.getHttpServer()).get(`/openapi.json?version=${version}`).expect(200)).body] as const)).then(
      (documents) => new VersionedContracts(new Map(documents), CURRENT_API_VERSION),
    );
    return new TallyUnderTest(app, clock, dataDir, await contract);
  }

  /** A Tally with one tenant (Acme, eu) and an agent holding its sandbox key: what most test files start from. */
  static async withTenant(options: Parameters<typeof TallyUnderTest.start>[0] = {}): Promise<{ tally: TallyUnderTest; acme: TestTenant; api: ReturnType<TallyUnderTest['as']> }> {
    const tally = await TallyUnderTest.start(options);
    const acme = await tally.tenant('Acme', 'eu');
    return { tally, acme, api: tally.as(acme.sandbox) };
  }

  get worker(): Worker {
    return this.app.get(Worker);
  }

  get cells(): CellRegistry {
    return this.app.get(CellRegistry);
  }

  /**
   * Waits until every projection and process manager has caught up with every write so far, and
   * the webhook dispatcher has attempted, and recorded, every delivery due now on its clock.
   */
  settle(): Promise<void> {
    return this.worker.settle();
  }

  async tenant(name = 'Acme', region: Region = 'eu'): Promise<TestTenant> {
    const bootstrap = new TenantAdministration(this.app.get(CommandRuntime), this.app.get<IdGenerator>(ID_GENERATOR));
    const { tenantId, keys } = await bootstrap.createTenant(name, region);
    await this.settle();
    const secret = (environment: string) => keys.find((k) => k.environment === environment)!.secret;
    return { tenantId, live: secret('live'), sandbox: secret('sandbox'), region };
  }

  /** A supertest agent authenticated with `key`; every response is checked against the OpenAPI document of the version that served it. */
  as(key: string) {
    const http = this.http();
    const auth = (test: request.Test) => test.set('Authorization', `Bearer ${key}`);
    return {
      get: (path: string) => auth(http.get(path)),
      post: (path: string, body?: object) => (body ? auth(http.post(path)).send(body) : auth(http.post(path))),
      patch: (path: string, body?: object) => (body ? auth(http.patch(path)).send(body) : auth(http.patch(path))),
      delete: (path: string) => auth(http.delete(path)),
    };
  }

  /** A supertest agent with the operator key. */
  operator() {
    return this.as(OPERATOR_KEY);
  }

  /** Raises the tenant's rate limits far above a test's pace (sandbox limits are a tenth of live's), so requests reach the routes rather than 429. */
  async liftRateLimits(tenantId: string): Promise<void> {
    const unlimited = { read: 1_000_000, write: 1_000_000, money: 1_000_000, usage: 1_000_000, admin: 1_000_000 };
    await this.operator().patch(`/v1/operator/tenants/${tenantId}`, { rate_limits: unlimited }).expect(200);
  }

  /** The URLs this Tally hands out start with it. */
  get publicUrl(): string {
    return this.app.get(PublicUrl).base;
  }

  /**
   * Requests without a key, to a path or to a URL this Tally handed out (sent to the app whatever
   * its public URL); every response is checked against the OpenAPI document of the version that
   * served it.
   */
  http(): Record<Method, (path: string) => request.Test> {
    const server = this.app.getHttpServer();
    const pathOf = (url: string) => (url.startsWith(`${this.publicUrl}/`) ? url.slice(this.publicUrl.length) : url);
    const checked = (method: Method) => (url: string) => {
      const path = pathOf(url);
      return request(server)[method](path).expect((response) => this.contract.check(method, path, response));
    };
    return { get: checked('get'), post: checked('post'), put: checked('put'), patch: checked('patch'), delete: checked('delete') };
  }

  /** Position of the newest event in the region's event store (0 when empty). */
  async head(region: Region = 'eu'): Promise<bigint> {
    return (await this.cells.cell(region).events.headPosition()) ?? 0n;
  }

  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    const { cells } = this;
    await this.app.close();
    // The app leaves its stores open; MongoDB clients (read store, leases) would keep the test process alive.
    await cells.close();
    if (options.keepData) return;
    rmSync(this.dataDir, { recursive: true, force: true });
    await dropMongoReadStore(this.dataDir);
  }
}
