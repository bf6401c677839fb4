import { inLanes } from './lanes';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('inLanes', () => {
  it('handles the items of one lane in order, and the lanes at the same time', async () => {
    const log: string[] = [];
    await inLanes(['a1', 'b1', 'a2', 'b2'], (item) => item[0], async (item) => {
      log.push(`start ${item}`);
      await tick();
      log.push(`end ${item}`);
    });
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2', 'end b1', 'start b2', 'end a2', 'end b2']);
  });

  it('lets the other lanes finish before it answers with a failure', async () => {
    const finished: string[] = [];
    const handled = inLanes(['a', 'b', 'c'], (item) => item, async (item) => {
      if (item === 'a') throw new Error('a failed');
      await tick();
      await tick();
      finished.push(item);
    });
    await expect(handled).rejects.toThrow('a failed');
    expect(finished).toEqual(['b', 'c']);
  });
});
