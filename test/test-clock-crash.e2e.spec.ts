import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, UlidGenerator } from '@tally/kernel';
import { Clocks, CommandRuntime, streamName, testClockAggregate } from '@tally/runtime';
import { openEmbeddedCells, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { CONTEXTS } from '../apps/contexts';
import { CRASH_LINKS, CRASH_T0, CRASH_TARGET } from './support/advance-crash-child';
import { startTsChild } from './support/ts-child-process';
import { scaled } from './support/time-scale';

/** The kill lands after this many links were marked, plus a random delay, well before the last. */
const KILL_AFTER_LINK = 8;
const KILL_JITTER_MS = 40;
const DAY_MS = 86_400_000;

/** Runs the child to its end, or SIGKILLs it once `killWhen` accepts a line it printed. */
async function runChild(args: string[], killWhen: (line: string) => boolean = () => false): Promise<{ lines: string[]; signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  const lines: string[] = [];
  const victim = startTsChild('advance-crash-child.ts', args, (line) => {
    lines.push(line);
    if (killWhen(line)) setTimeout(() => victim.child.kill('SIGKILL'), Math.random() * KILL_JITTER_MS);
  });
  const limit = setTimeout(() => victim.child.kill('SIGKILL'), 60_000);
  const { code, signal } = await victim.closed;
  clearTimeout(limit);
  return { lines, signal, code, stderr: victim.stderr() };
}

describe('a test clock advance killed with SIGKILL', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-advance-crash-'));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('resumes after a restart: every timer fires once, in due order at its own time, and the clock ends ready at the target', async () => {
    const killed = await runChild([dataDir, 'start'], (line) => line === `link ${KILL_AFTER_LINK}`);
    expect({ signal: killed.signal, stderr: killed.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    const [clockId, customerId] = killed.lines[0].split(' ').slice(1);
    const markedBeforeKill = killed.lines.filter((line) => line.startsWith('link ')).length;
    expect(markedBeforeKill).toBeGreaterThanOrEqual(KILL_AFTER_LINK);
    expect(markedBeforeKill).toBeLessThan(CRASH_LINKS);

    const resumed = await runChild([dataDir, 'resume', clockId]);
    expect({ code: resumed.code, stderr: resumed.stderr, last: resumed.lines.at(-1) }).toEqual({ code: 0, stderr: '', last: 'ready' });

    const clock = new ManualClock();
    const cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
    try {
      const cell = cells.cell('eu');
      const context: RequestContext = { tenantId: 'ten_crash', environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null };
      const runtime = new CommandRuntime(cells, new Clocks(clock), new UlidGenerator(clock));
      expect((await runtime.load(cell, testClockAggregate, clockId, context)).resource).toMatchObject({ status: 'ready', frozen_time: CRASH_TARGET });

      const updates = (await cell.events.readStream(streamName(customerAggregate.type, customerId))).filter((event) => event.type === 'CustomerUpdated');
      const marks = await Promise.all(updates.map(async (event) => [((await cell.pii.decode(event.type, event.data)) as { metadata: { link: string } }).metadata.link, event.metadata.occurred_at]));
      const day = (n: number) => new Date(Date.parse(CRASH_T0) + n * DAY_MS).toISOString();
      expect(marks).toEqual(Array.from({ length: CRASH_LINKS }, (_, i) => [String(i + 1), day(i + 1)]));
    } finally {
      await cells.close();
    }
  }, scaled(120_000));
});
