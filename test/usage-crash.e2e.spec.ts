import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindingsFor, rebuildProjections } from '@tally/runtime';
import { CONTEXTS } from '../apps/contexts';
import { TallyUnderTest } from './support/tally';
import { startTsChild } from './support/ts-child-process';
import { BATCH_EVENTS, usageBatch } from './support/usage-crash-child';
import { scaled } from './support/time-scale';

const CHILD_LIMIT_MS = scaled(60_000);
const KILL_AFTER_ACKS = 12;

describe('usage ingestion killed with SIGKILL in the middle of a stream of batches', () => {
  let dataDir: string;

  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'tally-usage-crash-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('counts every acknowledged batch exactly once after the restart, and again after a resend and a rebuild', async () => {
    const acked = new Set<number>();
    let sent = -1;
    let ready: string[] = [];
    const victim = startTsChild('usage-crash-child.ts', [dataDir], (line) => {
      const [word, value, other] = line.split(' ');
      if (word === 'ready') ready = [value, other];
      if (word === 'sending') sent = Math.max(sent, Number(value));
      if (word === 'acked') acked.add(Number(value));
      if (acked.size === KILL_AFTER_ACKS) victim.child.kill('SIGKILL');
    });
    const limit = setTimeout(() => victim.child.kill('SIGKILL'), CHILD_LIMIT_MS);
    const { signal } = await victim.closed;
    clearTimeout(limit);
    expect({ signal, stderr: victim.stderr() }).toEqual({ signal: 'SIGKILL', stderr: '' });
    const [key, subscription] = ready;

    const tally = await TallyUnderTest.start({ dataDir });
    try {
      const api = tally.as(key);
      const counted = async () => (await api.get(`/v1/subscriptions/${subscription}/usage`).expect(200)).body.meters[0];
      // Batches in flight at the kill may or may not have been stored, but only whole.
      const afterRestart = await counted();
      expect(afterRestart.events % BATCH_EVENTS).toBe(0);
      expect(afterRestart.events).toBeGreaterThanOrEqual(acked.size * BATCH_EVENTS);
      expect(afterRestart.events).toBeLessThanOrEqual((sent + 1) * BATCH_EVENTS);
      expect(afterRestart.quantity).toBe(String(afterRestart.events));

      // Sent again, every batch counts once: those stored before the kill change nothing.
      for (let n = 0; n <= sent; n++) await api.post('/v1/usage/batch', usageBatch(subscription, n, tally.clock.now().toISOString())).expect(202);
      const total = (sent + 1) * BATCH_EVENTS;
      expect(await counted()).toMatchObject({ quantity: String(total), events: total });

      await tally.worker.stop();
      const cell = tally.cells.cell('eu');
      await rebuildProjections(bindingsFor(cell, tally.cells, CONTEXTS.projections.filter((projection) => projection.name === 'usage')));
      expect(await counted()).toMatchObject({ quantity: String(total), events: total });
    } finally {
      await tally.stop({ keepData: true });
    }
  }, scaled(120_000));
});
