import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from './sqlite-database';

describe('openSqliteDatabase', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tally-sqlite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('checkpoints every ~40 MB of WAL, or only at ~400 MB as a backstop beside a connection that does it', () => {
    const file = join(dir, 'eu.sqlite');
    const regular = openSqliteDatabase(file);
    const backstop = openSqliteDatabase(file, 'as-a-backstop');
    try {
      expect(regular.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(regular.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
      expect(backstop.pragma('wal_autocheckpoint', { simple: true })).toBe(100_000);
    } finally {
      regular.close();
      backstop.close();
    }
  });
});
