import { ManualClock } from './clock';
import { derivedId, isIdOf, timeOrderedDerivedId, UlidGenerator, ulidTime } from './ids';

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

describe('derivedId', () => {
  it('gives the same id for the same parts, and another for any other part', () => {
    const id = derivedId('plan', ['ten_1', 'live', 'gold']);
    expect(id).toMatch(/^plan_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(derivedId('plan', ['ten_1', 'live', 'gold'])).toBe(id);
    expect(new Set([id, derivedId('plan', ['ten_1', 'sandbox', 'gold']), derivedId('plan', ['ten_2', 'live', 'gold']), derivedId('plan', ['ten_1', 'live', 'Gold'])]).size).toBe(4);
  });

  it('keeps the parts apart: ("ab", "c") and ("a", "bc") differ', () => {
    expect(derivedId('x', ['ab', 'c'])).not.toBe(derivedId('x', ['a', 'bc']));
  });

  it('never changes: stored streams, commands and resources are named by these ids', () => {
    expect(derivedId('plan', ['ten_1', 'live', 'gold'])).toBe('plan_ZD0K8DRMJ7P7HWYQ48J38GW3AC');
    expect(derivedId('cmd', ['pm.subscription_cycle-sub_1', 'timer:period_end', '0'])).toBe('cmd_49EXCJX7SCBZWZC9YPXXKGH7T2');
  });
});

describe('timeOrderedDerivedId', () => {
  const EARLIER = 'evt_01JD3M0000AAAAAAAAAAAAAAAA';
  const LATER = 'evt_01JD3M0001ZZZZZZZZZZZZZZZZ';

  it('is derived from the parts alone, as derivedId, and begins with the time of the id it was made after', () => {
    const id = timeOrderedDerivedId('del', LATER, ['we_1', LATER]);
    expect(isIdOf('del', id)).toBe(true);
    expect(id.slice(4, 14)).toBe('01JD3M0001');
    expect(timeOrderedDerivedId('del', LATER, ['we_1', LATER])).toBe(id);
    expect(timeOrderedDerivedId('del', LATER, ['we_2', LATER])).not.toBe(id);
    expect(ulidTime(id)).toEqual(ulidTime(LATER));
  });

  it('sorts by that time, whatever the parts', () => {
    const ids = [timeOrderedDerivedId('del', LATER, ['a']), timeOrderedDerivedId('del', EARLIER, ['z']), timeOrderedDerivedId('del', EARLIER, ['b'])];
    expect(ids.map(ulidTime).map((at) => at.getTime())).toEqual([ulidTime(LATER).getTime(), ulidTime(EARLIER).getTime(), ulidTime(EARLIER).getTime()]);
    expect([...ids].sort()[2]).toBe(ids[0]);
  });

  it('never changes: delivery logs name deliveries by these ids', () => {
    expect(timeOrderedDerivedId('del', EARLIER, ['we_1', EARLIER])).toBe('del_01JD3M0000FHZFC746KJ5C62E3');
  });
});

describe('isIdOf', () => {
  it('recognises minted and derived ids of a prefix only', () => {
    expect(isIdOf('plan', derivedId('plan', ['a']))).toBe(true);
    expect(isIdOf('plan', new UlidGenerator(new ManualClock()).next('plan'))).toBe(true);
    expect(isIdOf('plan', derivedId('cus', ['a']))).toBe(false);
    expect(isIdOf('plan', 'plan_gold')).toBe(false);
    expect(isIdOf('plan', 'plan_0123456789abcdefghjkmnpqrs')).toBe(false);
  });
});
