import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendNotifier } from './append-notifier';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database';

describe('AppendNotifier across threads', () => {
  let dir: string;
  let db: SqliteDatabase;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tally-notifier-'));
    db = openSqliteDatabase(join(dir, 'eu.sqlite'));
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('taps this thread’s appends to files, and wakes listeners for appends delivered from another thread without tapping them again', () => {
    const notifier = AppendNotifier.for(db);
    const tapped: [string, string][] = [];
    const woken: string[] = [];
    const untap = AppendNotifier.tap((file, stream) => tapped.push([file, stream]));
    const unlisten = notifier.listen((stream) => woken.push(stream));
    try {
      notifier.notify('customer-cus_1');
      AppendNotifier.deliver(join(dir, '.', 'eu.sqlite'), 'customer-cus_2');
      AppendNotifier.deliver(join(dir, 'us.sqlite'), 'customer-cus_3');
      expect(woken).toEqual(['customer-cus_1', 'customer-cus_2']);
      expect(tapped).toEqual([[join(dir, 'eu.sqlite'), 'customer-cus_1']]);
    } finally {
      untap();
      unlisten();
    }
  });

  it('does not tap in-memory databases, which no other thread can open', () => {
    const memory = openSqliteDatabase(':memory:');
    const tapped: string[] = [];
    const untap = AppendNotifier.tap((_file, stream) => tapped.push(stream));
    AppendNotifier.for(memory).notify('customer-cus_1');
    untap();
    memory.close();
    expect(tapped).toEqual([]);
  });
});
