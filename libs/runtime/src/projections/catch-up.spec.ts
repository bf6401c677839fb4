import type { EventStore, RecordedEvent } from '@tally/eventstore';
import { CatchUp } from './catch-up';

const pendingAt = (position: bigint) => ({ position }) as RecordedEvent;

describe('CatchUp', () => {
  it('resolves when the subscriber handled the position while the read for it was under way', async () => {
    let progress!: CatchUp;
    const events = {
      async readAll() {
        progress.advance(9n);
        return [pendingAt(9n)];
      },
    } as unknown as EventStore;
    progress = new CatchUp(events, { streamPrefixes: ['x-'] });
    await expect(Promise.race([progress.reached(9n).then(() => 'reached'), new Promise((resolve) => setTimeout(resolve, 200, 'stuck'))])).resolves.toBe('reached');
  });

  it('waits for a pending event until it is handled', async () => {
    const events = { readAll: async () => [pendingAt(5n)] } as unknown as EventStore;
    const progress = new CatchUp(events, { streamPrefixes: ['x-'] }, 3n);
    let reached = false;
    const waiting = progress.reached(5n).then(() => (reached = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reached).toBe(false);
    progress.advance(5n);
    await waiting;
    expect(reached).toBe(true);
  });

  it('asks the log about each stretch once: a later look starts where the last one found nothing pending', async () => {
    const asked: (bigint | undefined)[] = [];
    const events = {
      async readAll({ fromPosition }: { fromPosition?: bigint }) {
        asked.push(fromPosition);
        return [];
      },
    } as unknown as EventStore;
    const progress = new CatchUp(events, { streamPrefixes: ['x-'] }, 3n);
    await progress.reached(100n);
    await progress.reached(100n);
    await progress.reached(250n);
    expect(asked).toEqual([3n, 100n]);
  });
});
