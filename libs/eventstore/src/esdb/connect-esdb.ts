import { EventStoreDBClient } from '@eventstore/db-client';

/** A client from a connection string such as `esdb://localhost:2113?tls=false`. Dispose it on shutdown. */
export function connectEsdb(url: string): EventStoreDBClient {
  return EventStoreDBClient.connectionString(url);
}
