import { readConfig } from './tally-config';

const production = { TALLY_PROFILE: 'production', TALLY_REGIONS: 'eu', EVENTSTORE_URL: 'esdb://es:2113?tls=false', MONGO_URL: 'mongodb://mongo:27017/', TALLY_PUBLIC_URL: 'https://billing.example.com' };

describe('read store settings', () => {
  it('keeps the read models in the region files on the embedded profile and in each region’s MongoDB in production', () => {
    expect(readConfig({})).toMatchObject({ readStore: 'sqlite', readStoreMongoUrl: undefined });
    expect(readConfig(production)).toMatchObject({ readStore: 'mongo', readStoreMongoUrl: undefined });
  });

  it('lets the embedded profile keep them in MongoDB, from TALLY_READ_STORE_MONGO_URL or MONGO_URL', () => {
    expect(readConfig({ TALLY_READ_STORE: 'mongo', MONGO_URL: 'mongodb://m/' })).toMatchObject({ readStore: 'mongo', readStoreMongoUrl: 'mongodb://m/' });
    expect(readConfig({ TALLY_READ_STORE: 'mongo', MONGO_URL: 'mongodb://m/', TALLY_READ_STORE_MONGO_URL: 'mongodb://r/reads' })).toMatchObject({ readStoreMongoUrl: 'mongodb://r/reads' });
    expect(() => readConfig({ TALLY_READ_STORE: 'mongo' })).toThrow('TALLY_READ_STORE=mongo needs TALLY_READ_STORE_MONGO_URL or MONGO_URL');
  });

  it('refuses a read store production cannot run on, and an unknown one', () => {
    expect(() => readConfig({ ...production, TALLY_READ_STORE: 'sqlite' })).toThrow('The production profile keeps its read models in MongoDB');
    expect(() => readConfig({ TALLY_READ_STORE: 'postgres' })).toThrow('TALLY_READ_STORE is sqlite or mongo, not postgres');
  });
});
