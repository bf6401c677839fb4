import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database';
import { REMEMBERED_STREAMS, StreamEnds } from './stream-ends';

describe('StreamEnds', () => {
  let db: SqliteDatabase;

  beforeEach(() => (db = openSqliteDatabase(':memory:')));
  afterEach(() => db.close());

  it('knows a remembered stream has nothing from its end on, and nothing about a stream it was not told of', () => {
    const ends = StreamEnds.for(db);
    ends.remember('invoice-in_1', 2);
    expect(ends.hasNoneFrom('invoice-in_1', 2)).toBe(true);
    expect(ends.hasNoneFrom('invoice-in_1', 1)).toBe(false);
    expect(ends.hasNoneFrom('invoice-in_2', 0)).toBe(false);
  });

  it('past its capacity forgets only the stream remembered longest ago, so the streams in use stay known', () => {
    const ends = StreamEnds.for(db);
    for (let i = 0; i < REMEMBERED_STREAMS; i++) ends.remember(`subscription-sub_${i}`, 1);
    // Remembered again (appended to), the first stream is now the newest.
    ends.remember('subscription-sub_0', 2);
    ends.remember('invoice-in_new', 1);

    expect(ends.hasNoneFrom('subscription-sub_1', 1)).toBe(false);
    expect(ends.hasNoneFrom('subscription-sub_0', 2)).toBe(true);
    expect(ends.hasNoneFrom('subscription-sub_2', 1)).toBe(true);
    expect(ends.hasNoneFrom(`subscription-sub_${REMEMBERED_STREAMS - 1}`, 1)).toBe(true);
    expect(ends.hasNoneFrom('invoice-in_new', 1)).toBe(true);
  });
});
