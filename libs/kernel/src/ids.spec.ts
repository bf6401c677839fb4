import { ManualClock } from './clock';
import { UlidGenerator, ulidTime } from './ids';

describe('UlidGenerator', () => {
  it('prefixes ids and encodes the clock time', () => {
    const clock = new ManualClock('2026-03-04T05:06:07.089Z');
    const id = new UlidGenerator(clock).next('cus');
    expect(id).toMatch(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulidTime(id).toISOString()).toBe('2026-03-04T05:06:07.089Z');
  });

  it('sorts in creation order within one millisecond and across milliseconds', () => {
    const clock = new ManualClock();
    const ids = new UlidGenerator(clock);
    const minted: string[] = [];
    for (let i = 0; i < 200; i++) {
      minted.push(ids.ulid());
      if (i % 50 === 0) clock.advance(1);
    }
    expect([...minted].sort()).toEqual(minted);
    expect(new Set(minted).size).toBe(minted.length);
  });

  it('stays monotonic when the clock moves backwards', () => {
    const clock = new ManualClock('2026-01-01T00:00:01.000Z');
    const ids = new UlidGenerator(clock);
    const first = ids.ulid();
    clock.set('2026-01-01T00:00:00.000Z');
    expect(ids.ulid() > first).toBe(true);
  });
});
