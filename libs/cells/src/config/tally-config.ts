import { LOG_LEVELS, type LogFormat, type LogLevel } from '@tally/observability';
import { REGIONS, type Region } from '../context/request-context';
import { parsePublicUrl } from './public-url';

export type Profile = 'embedded' | 'production';

/** Where workers hold their leases: `local` in the process (one process per data folder), `mongo` shared. */
export type LeaseBackend = 'local' | 'mongo';

/** Where the embedded profile keeps its read models: `sqlite` in the region files, `mongo` as production does. */
export type ReadStoreBackend = 'sqlite' | 'mongo';

export interface RegionStores {
  eventStoreUrl: string;
  mongoUrl: string;
}

/** Everything Tally reads from the environment, read in one place. */
export interface TallyConfig {
  port: number;
  /** Where customers and clients reach Tally, the start of every URL it hands out (see PublicUrl); no trailing slash. */
  publicUrl: string;
  profile: Profile;
  dataDir: string;
  regions: readonly Region[];
  /** Production: one EventStoreDB and one MongoDB per region. */
  regionStores: Partial<Record<Region, RegionStores>>;
  /** Production: the MongoDB holding the global key directory. */
  directoryMongoUrl: string | undefined;
  /** Base64 of 32 bytes that wraps the per-customer data keys; the embedded profile keeps one in the data folder. */
  masterKey: string | undefined;
  operatorKey: string | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** `mongo` in production (each region's MongoDB); the embedded profile may choose it to run several workers on one folder. */
  leases: LeaseBackend;
  /** Embedded profile with `leases: 'mongo'`: the MongoDB (and database) holding the leases. */
  leasesMongoUrl: string | undefined;
  /** How long a lease lasts without renewal: how soon another worker takes over from a dead one. */
  leaseTtlMs: number;
  /** How long a caller's read waits for the read models to show what the caller wrote before it answers with what they hold. */
  readWaitMs: number;
  /** `mongo` in production; the embedded profile may choose it to run on the production read store with its SQLite events. */
  readStore: ReadStoreBackend;
  /** Embedded profile with `readStore: 'mongo'`: the MongoDB, and in its path the database, whose name starts each cell's database and the directory's. */
  readStoreMongoUrl: string | undefined;
  /** How long a webhook receiver has to answer a delivery, from the lookup to the body's end. */
  webhookTimeoutMs: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): TallyConfig {
  const profile = (env.TALLY_PROFILE ?? 'embedded') as Profile;
  if (profile !== 'embedded' && profile !== 'production') throw new Error(`TALLY_PROFILE is embedded or production, not ${profile}`);
  const regions = parseRegions(env.TALLY_REGIONS);
  const port = parsePort(env.PORT);
  const config: TallyConfig = {
    port,
    publicUrl: publicUrlOf(env, profile, port),
    profile,
    dataDir: env.TALLY_DATA_DIR ?? './data',
    regions,
    regionStores: {},
    directoryMongoUrl: env.TALLY_DIRECTORY_MONGO_URL ?? env.MONGO_URL,
    masterKey: env.TALLY_MASTER_KEY,
    operatorKey: env.TALLY_OPERATOR_KEY,
    logLevel: parseLogLevel(env.LOG_LEVEL),
    logFormat: parseLogFormat(env.LOG_FORMAT, profile),
    ...parseLeases(env, profile),
    readWaitMs: wholeMilliseconds('TALLY_READ_WAIT_MS', env.TALLY_READ_WAIT_MS, DEFAULT_READ_WAIT_MS),
    ...parseReadStore(env, profile),
    webhookTimeoutMs: wholeMilliseconds('TALLY_WEBHOOK_TIMEOUT_MS', env.TALLY_WEBHOOK_TIMEOUT_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, 1),
  };
  if (profile === 'production') config.regionStores = productionStores(env, regions);
  return config;
}

/** 0 asks for a free port: the API's main picks one before it starts, so that the public URL's default names it. */
function parsePort(raw = '3000'): number {
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65_535) throw new Error(`PORT is a TCP port from 0 to 65535, not ${raw}`);
  return Number(raw);
}

/**
 * `TALLY_PUBLIC_URL`, else the address the embedded profile's API listens on. Production's
 * processes sit behind an address of their own (and its worker listens on none), so it must be set.
 */
function publicUrlOf(env: NodeJS.ProcessEnv, profile: Profile, port: number): string {
  if (env.TALLY_PUBLIC_URL !== undefined) return parsePublicUrl(env.TALLY_PUBLIC_URL);
  if (profile === 'production') throw new Error('The production profile needs TALLY_PUBLIC_URL, the address customers reach the API at (such as https://billing.example.com)');
  return `http://localhost:${port}`;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  const level = (raw ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL is one of ${LOG_LEVELS.join(', ')}, not ${level}`);
  return level;
}

function parseLogFormat(raw: string | undefined, profile: Profile): LogFormat {
  const format = raw ?? (profile === 'embedded' ? 'text' : 'json');
  if (format !== 'json' && format !== 'text') throw new Error(`LOG_FORMAT is json or text, not ${format}`);
  return format;
}

/** How long a lease lasts unless renewed: how long a crashed holder's work waits for a successor. */
export const DEFAULT_LEASE_TTL_MS = 10_000;
const MIN_LEASE_TTL_MS = 300;

function parseLeases(env: NodeJS.ProcessEnv, profile: Profile): Pick<TallyConfig, 'leases' | 'leasesMongoUrl' | 'leaseTtlMs'> {
  const leases = (env.TALLY_LEASES ?? (profile === 'embedded' ? 'local' : 'mongo')) as LeaseBackend;
  if (leases !== 'local' && leases !== 'mongo') throw new Error(`TALLY_LEASES is local or mongo, not ${leases}`);
  if (profile === 'production' && leases !== 'mongo') throw new Error('The production profile holds its leases in MongoDB (TALLY_LEASES=mongo)');
  const leasesMongoUrl = env.TALLY_LEASES_MONGO_URL ?? env.MONGO_URL;
  if (profile === 'embedded' && leases === 'mongo' && !leasesMongoUrl) throw new Error('TALLY_LEASES=mongo needs TALLY_LEASES_MONGO_URL or MONGO_URL');
  const leaseTtlMs = Number(env.TALLY_LEASE_TTL_MS ?? DEFAULT_LEASE_TTL_MS);
  if (!Number.isInteger(leaseTtlMs) || leaseTtlMs < MIN_LEASE_TTL_MS) throw new Error(`TALLY_LEASE_TTL_MS is a whole number of milliseconds, at least ${MIN_LEASE_TTL_MS}`);
  return { leases, leasesMongoUrl: leases === 'mongo' && profile === 'embedded' ? leasesMongoUrl : undefined, leaseTtlMs };
}

/** Far beyond the few milliseconds the read models trail the log by, and within a client's patience after a restart. */
export const DEFAULT_READ_WAIT_MS = 10_000;

/** The spec's: a receiver answers within 10 seconds. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

function wholeMilliseconds(variable: string, raw: string | undefined, fallback: number, min = 0): number {
  const ms = Number(raw ?? fallback);
  if (!Number.isInteger(ms) || ms < min) throw new Error(`${variable} is a whole number of milliseconds${min > 0 ? `, at least ${min}` : ''}`);
  return ms;
}

function parseReadStore(env: NodeJS.ProcessEnv, profile: Profile): Pick<TallyConfig, 'readStore' | 'readStoreMongoUrl'> {
  const readStore = (env.TALLY_READ_STORE ?? (profile === 'embedded' ? 'sqlite' : 'mongo')) as ReadStoreBackend;
  if (readStore !== 'sqlite' && readStore !== 'mongo') throw new Error(`TALLY_READ_STORE is sqlite or mongo, not ${readStore}`);
  if (profile === 'production' && readStore !== 'mongo') throw new Error('The production profile keeps its read models in MongoDB (TALLY_READ_STORE=mongo)');
  const readStoreMongoUrl = env.TALLY_READ_STORE_MONGO_URL ?? env.MONGO_URL;
  if (profile === 'embedded' && readStore === 'mongo' && !readStoreMongoUrl) throw new Error('TALLY_READ_STORE=mongo needs TALLY_READ_STORE_MONGO_URL or MONGO_URL');
  return { readStore, readStoreMongoUrl: readStore === 'mongo' && profile === 'embedded' ? readStoreMongoUrl : undefined };
}

function parseRegions(raw: string | undefined): Region[] {
  if (!raw) return [...REGIONS];
  const regions = raw.split(',').map((r) => r.trim()) as Region[];
  const unknown = regions.filter((r) => !REGIONS.includes(r));
  if (unknown.length > 0) throw new Error(`TALLY_REGIONS names unknown regions: ${unknown.join(', ')}`);
  return regions;
}

/**
 * Each region's stores come from EVENTSTORE_URL_<REGION> and MONGO_URL_<REGION>. A deployment
 * serving a single region may use EVENTSTORE_URL and MONGO_URL instead; with several regions a
 * shared server would mix their data, so per-region URLs are required.
 */
function productionStores(env: NodeJS.ProcessEnv, regions: readonly Region[]): Partial<Record<Region, RegionStores>> {
  const stores: Partial<Record<Region, RegionStores>> = {};
  for (const region of regions) {
    const suffix = region.toUpperCase();
    const single = regions.length === 1;
    const eventStoreUrl = env[`EVENTSTORE_URL_${suffix}`] ?? (single ? env.EVENTSTORE_URL : undefined);
    const mongoUrl = env[`MONGO_URL_${suffix}`] ?? (single ? env.MONGO_URL : undefined);
    if (!eventStoreUrl || !mongoUrl) {
      throw new Error(`Region ${region} needs EVENTSTORE_URL_${suffix} and MONGO_URL_${suffix} (or EVENTSTORE_URL and MONGO_URL when TALLY_REGIONS names one region)`);
    }
    stores[region] = { eventStoreUrl, mongoUrl };
  }
  return stores;
}
