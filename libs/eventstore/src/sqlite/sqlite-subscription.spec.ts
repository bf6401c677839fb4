import { setTimeout as sleep } from 'node:timers/promises';
import { AppendNotifier } from './append-notifier';
import { SqliteSubscription } from './sqlite-subscription';

describe('SqliteSubscription wake-ups', () => {
  it('wakes for appends to the streams it wants, and not for others', async () => {
    const notifier = new AppendNotifier();
    let reads = 0;
    const subscription = new SqliteSubscription(
      (from) => {
        reads++;
        return { events: [], scannedTo: from, more: false };
      },
      0n,
      notifier,
      () => undefined,
      (stream) => stream.startsWith('customer-'),
    );
    const iteration = subscription[Symbol.asyncIterator]().next();
    await sleep(5);
    expect(reads).toBe(1);

    notifier.notify('tenant-ten_1');
    await sleep(5);
    expect(reads).toBe(1);

    notifier.notify('customer-cus_1');
    await sleep(5);
    expect(reads).toBe(2);

    await subscription.close();
    await expect(iteration).resolves.toEqual({ done: true, value: undefined });
  });
});
