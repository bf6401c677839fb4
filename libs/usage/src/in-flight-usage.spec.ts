import { InFlightUsage } from './in-flight-usage';
import { usage } from './testing/usage-log';

const counted = (...entries: [string, string][]) => new Map(entries.map(([key, quantity]) => [key, usage(key, quantity, '2026-06-02T00:00:00.000Z')]));

describe('the events in flight in one cell', () => {
  it('answers the original of a key until the projection’s checkpoint passes its batch', () => {
    const inFlight = new InFlightUsage();
    inFlight.remember(10n, counted(['a', '1'], ['b', '2']));
    inFlight.remember(12n, counted(['c', '3']));
    expect(['a', 'b', 'c', 'x'].map((key) => inFlight.originalOf(key)?.quantity)).toEqual(['1', '2', '3', undefined]);

    inFlight.forgetCounted(undefined);
    expect(inFlight.originalOf('a')?.quantity).toBe('1');
    inFlight.forgetCounted(11n);
    expect(['a', 'b', 'c'].map((key) => inFlight.originalOf(key)?.quantity)).toEqual([undefined, undefined, '3']);
    inFlight.forgetCounted(12n);
    expect(inFlight.originalOf('c')).toBeUndefined();
  });

  it('takes the earlier in the log of two batches in flight with one key, whichever was remembered first', () => {
    const inFlight = new InFlightUsage();
    inFlight.remember(20n, counted(['k', 'later']));
    inFlight.remember(15n, counted(['k', 'earlier']));
    inFlight.remember(25n, counted(['k', 'latest']));
    expect(inFlight.originalOf('k')?.quantity).toBe('earlier');
    inFlight.forgetCounted(15n);
    expect(inFlight.originalOf('k')).toBeUndefined();
  });

  it('keeps at most its capacity of events, letting the oldest batches go first', () => {
    const inFlight = new InFlightUsage(3);
    inFlight.remember(1n, counted(['a', '1'], ['b', '2']));
    inFlight.remember(2n, counted(['c', '3']));
    inFlight.remember(3n, counted(['d', '4']));
    expect(['a', 'b', 'c', 'd'].map((key) => inFlight.originalOf(key)?.quantity)).toEqual([undefined, undefined, '3', '4']);
  });
});
