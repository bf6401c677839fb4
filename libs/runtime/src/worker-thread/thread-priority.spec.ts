import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { WORKER_THREAD_NICENESS } from './thread-priority';

/** The thread loads the TypeScript sources as a test's child processes do. */
const TS_LOADER = ['-r', join(__dirname, '..', '..', '..', '..', 'test', 'support', 'ts-child.js')];

const LOWER_IN_A_THREAD = `
  const { parentPort } = require('node:worker_threads');
  const { getPriority } = require('node:os');
  const lowered = require(${JSON.stringify(join(__dirname, 'thread-priority.ts'))}).lowerThisThreadsPriority();
  parentPort.postMessage({ lowered, priority: getPriority(0) });
`;

describe('lowerThisThreadsPriority', () => {
  const onLinux = process.platform === 'linux' ? it : it.skip;

  onLinux('lowers the calling thread alone: the request thread keeps its priority', async () => {
    const before = getPriority(0);
    const answer = await new Promise<{ lowered: boolean; priority: number }>((resolve, reject) => {
      const thread = new Worker(LOWER_IN_A_THREAD, { eval: true, execArgv: TS_LOADER });
      thread.once('message', (message) => void thread.terminate().then(() => resolve(message)));
      thread.once('error', reject);
    });

    expect(answer).toEqual({ lowered: true, priority: Math.max(before, WORKER_THREAD_NICENESS) });
    expect(getPriority(0)).toBe(before);
  });
});
