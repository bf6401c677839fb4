import Big from 'big.js';
import type { RecordedEvent } from '@tally/eventstore';
import type { Doc } from '@tally/readstore';
import { scopedIndex, type Projection, type ProjectionWriter } from '@tally/runtime';
import { POSTED_EVENT_TYPES, type PostedEvent } from './domain/ledger-events';
import { post, type LedgerSource } from './domain/ledger-postings';
import type { JournalEntry } from './domain/journal-entry';
import type { LedgerAccount } from './domain/ledger-accounts';

export const LEDGER_ENTRIES = 'ledger_entries';
export const LEDGER_DAILY_MOVEMENTS = 'ledger_daily_movements';
/** What the ledger remembers of each stream it posts (see LedgerSource), by stream name. */
const LEDGER_SOURCES = 'ledger_sources';

/** The streams whose events the ledger posts: invoices, payments and wallets (refunds' streams join them where that context publishes them). */
export const LEDGER_STREAM_PREFIXES = ['invoice-', 'payment-', 'wallet-', 'refund-'];

/** A journal entry as the read model keeps it: the entry of one event, its source named. */
export interface LedgerEntryDoc extends JournalEntry {
  [field: string]: unknown;
  id: string;
  object: 'ledger_entry';
  occurred_at: string;
  created_at: string;
  source: { object: string; id: string; event_type: string };
}

interface SourceDoc {
  [field: string]: unknown;
  id: string;
  source: LedgerSource;
}

interface MovementDoc {
  [field: string]: unknown;
  id: string;
  tenant_id: string;
  environment: string;
  currency: string;
  account: LedgerAccount;
  day: string;
  debit: string;
  credit: string;
}

/**
 * The double-entry ledger: each money event's journal entry (the posting rules of
 * domain/ledger-postings.ts), dated when the event occurred (on the test clock of a sandbox
 * customer's), and each account's movements summed per currency and UTC day, which the balances
 * by period are read from. Deterministic, so a rebuild from the log gives the same ledger.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  streamPrefixes: LEDGER_STREAM_PREFIXES,
  collections: [
    { name: LEDGER_ENTRIES, indexes: [scopedIndex('occurred_at'), scopedIndex('currency', 'occurred_at'), scopedIndex('source.id', 'occurred_at')] },
    { name: LEDGER_DAILY_MOVEMENTS, indexes: [scopedIndex('day')] },
    { name: LEDGER_SOURCES, indexes: [] },
  ],
  async handle(event, writer) {
    if (!POSTED_EVENT_TYPES.has(event.type)) return;
    const stored = await writer.get<SourceDoc>(LEDGER_SOURCES, event.stream);
    const { source, entry } = post(stored?.source, { type: event.type, data: event.data } as PostedEvent);
    if (source && source !== stored?.source) writer.upsert(LEDGER_SOURCES, { id: event.stream, source });
    if (entry) await record(event, entry, writer);
  },
};

async function record(event: RecordedEvent, entry: JournalEntry, writer: ProjectionWriter): Promise<void> {
  const { tenant_id, environment, occurred_at } = event.metadata;
  const dash = event.stream.indexOf('-');
  const doc: LedgerEntryDoc = {
    id: `je_${event.id}`,
    object: 'ledger_entry',
    tenant_id,
    environment,
    occurred_at,
    created_at: occurred_at,
    ...entry,
    source: { object: event.stream.slice(0, dash), id: event.stream.slice(dash + 1), event_type: event.type },
  };
  writer.upsert(LEDGER_ENTRIES, doc);
  const day = occurred_at.slice(0, 10);
  for (const line of entry.lines) {
    const id = [tenant_id, environment, entry.currency, line.account, day].join('|');
    const sums = (await writer.get<MovementDoc>(LEDGER_DAILY_MOVEMENTS, id)) ?? { id, tenant_id, environment, currency: entry.currency, account: line.account, day, debit: '0', credit: '0' };
    const updated: MovementDoc & Doc = { ...sums, [line.side]: new Big(sums[line.side]).plus(line.amount).toFixed() };
    writer.upsert(LEDGER_DAILY_MOVEMENTS, updated);
  }
}
