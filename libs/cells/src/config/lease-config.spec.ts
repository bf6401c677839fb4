import { readConfig } from './tally-config';

const production = { TALLY_PROFILE: 'production', TALLY_REGIONS: 'eu', EVENTSTORE_URL: 'esdb://es:2113?tls=false', MONGO_URL: 'mongodb://mongo:27017/', TALLY_PUBLIC_URL: 'https://billing.example.com' };

describe('lease settings', () => {
  it('holds leases in the process on the embedded profile and in each region’s MongoDB in production', () => {
    expect(readConfig({})).toMatchObject({ leases: 'local', leasesMongoUrl: undefined, leaseTtlMs: 10_000 });
    expect(readConfig(production)).toMatchObject({ leases: 'mongo', leasesMongoUrl: undefined });
  });

  it('lets the embedded profile hold them in MongoDB, from TALLY_LEASES_MONGO_URL or MONGO_URL', () => {
    expect(readConfig({ TALLY_LEASES: 'mongo', MONGO_URL: 'mongodb://m/' })).toMatchObject({ leases: 'mongo', leasesMongoUrl: 'mongodb://m/' });
    expect(readConfig({ TALLY_LEASES: 'mongo', MONGO_URL: 'mongodb://m/', TALLY_LEASES_MONGO_URL: 'mongodb://l/leases' })).toMatchObject({ leasesMongoUrl: 'mongodb://l/leases' });
    expect(() => readConfig({ TALLY_LEASES: 'mongo' })).toThrow('TALLY_LEASES=mongo needs TALLY_LEASES_MONGO_URL or MONGO_URL');
  });

  it('refuses leases a production deployment cannot share, an unknown backend and a TTL too short to renew', () => {
    expect(() => readConfig({ ...production, TALLY_LEASES: 'local' })).toThrow('The production profile holds its leases in MongoDB');
    expect(() => readConfig({ TALLY_LEASES: 'redis' })).toThrow('TALLY_LEASES is local or mongo, not redis');
    expect(() => readConfig({ TALLY_LEASE_TTL_MS: '299' })).toThrow('TALLY_LEASE_TTL_MS');
    expect(() => readConfig({ TALLY_LEASE_TTL_MS: '3s' })).toThrow('TALLY_LEASE_TTL_MS');
    expect(readConfig({ TALLY_LEASE_TTL_MS: '3000' }).leaseTtlMs).toBe(3_000);
  });
});
