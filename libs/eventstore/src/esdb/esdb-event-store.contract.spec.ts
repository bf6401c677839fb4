import { describeEventStoreContract } from '../testing/event-store.contract';
import { describeSnapshotStoreContract } from '../testing/snapshot-store.contract';
import { connectEsdb } from './connect-esdb';
import { EsdbEventStore } from './esdb-event-store';
import { EsdbSnapshotStore } from './esdb-snapshot-store';

const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('EventStoreDB', async () => {
    const client = connectEsdb(url);
    return { store: new EsdbEventStore(client), cleanup: () => client.dispose() };
  });

  describeSnapshotStoreContract('EventStoreDB', async () => {
    const client = connectEsdb(url);
    return { store: new EsdbSnapshotStore(client), cleanup: () => client.dispose() };
  });
} else {
  describe.skip('EventStoreDB adapters (skipped: set EVENTSTORE_URL, e.g. esdb://localhost:2113?tls=false)', () => {
    it('runs the EventStore and SnapshotStore contracts against a server', () => undefined);
  });
}
