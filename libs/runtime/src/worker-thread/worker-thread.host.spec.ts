import { join } from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import type { TallyConfig } from '@tally/cells';
import { DirectoryChanges } from '@tally/cells';
import { WorkerThreadHost } from './worker-thread.host';

/** The threads load the TypeScript sources as a test's child processes do. */
const TS_LOADER = ['-r', join(__dirname, '..', '..', '..', '..', 'test', 'support', 'ts-child.js')];
const STUB = join(__dirname, 'testing', 'stub-worker-thread.ts');

function hostOf(config: object) {
  const changes = new DirectoryChanges();
  const changed = jest.fn();
  changes.listen(changed);
  const died = jest.fn();
  const host = new WorkerThreadHost({ config: config as TallyConfig, entry: STUB, execArgv: TS_LOADER }, changes, died);
  return { host, changed, died };
}

describe('WorkerThreadHost', () => {
  it('runs a thread per part of the worker, settles both, and hands one thread’s appends to the other', async () => {
    const { host, changed, died } = hostOf({});
    await host.start();
    await host.settle();
    // The services thread appended once; only the followers thread, which did not, answers it.
    for (let wait = 0; wait < 100 && changed.mock.calls.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changed).toHaveBeenCalledTimes(1);
    await host.stop();
    expect(died).not.toHaveBeenCalled();
  });

  it('reports a thread that exits unasked once, and stops the other', async () => {
    const terminate = jest.spyOn(Thread.prototype, 'terminate');
    const { host, died } = hostOf({ dies: 'services' });
    // Whether the followers thread was ready before the other exited decides whether start fails too.
    await host.start().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(died).toHaveBeenCalledTimes(1);
    expect(terminate).toHaveBeenCalledTimes(2);
    terminate.mockRestore();
    expect(died.mock.calls[0][0].message).toBe('a worker thread exited with code 3');
    // Refused: with the start's failure when it failed too, or because no thread runs.
    await expect(host.settle()).rejects.toThrow(/exited with code 3|The worker threads are not running/);
    await host.stop();
  });
});
