import { nextAttemptAt, RETRY_HORIZON_MS } from './retry-schedule';

const first = new Date('2026-11-01T00:00:00.000Z');
const at = (ms: number) => new Date(first.getTime() + ms);
const MIDDLE = 0.5;

describe('retry schedule', () => {
  it('retries the first failure within seconds', () => expect(nextAttemptAt(1, first, first, MIDDLE)).toEqual(at(5_000)));

  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then the 24 h horizon', () => {
    const attempts = [first];
    for (;;) {
      const next = nextAttemptAt(attempts.length, first, attempts[attempts.length - 1], MIDDLE);
      if (!next) break;
      attempts.push(next);
    }
    const gaps = attempts.slice(1).map((time, index) => time.getTime() - attempts[index].getTime());
    expect(gaps).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, RETRY_HORIZON_MS - 63_305_000]);
    expect(attempts[attempts.length - 1]).toEqual(at(RETRY_HORIZON_MS));
  });

  it('moves each pause by at most a tenth either way', () => {
    expect(nextAttemptAt(2, first, first, 0)).toEqual(at(270_000));
    expect(nextAttemptAt(2, first, first, 0.999_999)!.getTime()).toBeLessThanOrEqual(at(330_000).getTime());
  });

  it('never schedules past the horizon, and gives up once it is reached', () => {
    expect(nextAttemptAt(6, first, at(RETRY_HORIZON_MS - 1_000), MIDDLE)).toEqual(at(RETRY_HORIZON_MS));
    expect(nextAttemptAt(3, first, at(RETRY_HORIZON_MS), MIDDLE)).toBeUndefined();
  });
});
