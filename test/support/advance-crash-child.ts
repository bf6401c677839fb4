/**
 * The victim of the test clock crash test. `start` creates a test clock, a customer on it whose
 * timer chain (see timer-chain.process.ts) marks one link a day, and an advance over every link,
 * prints their ids, then works on the advance, printing each link it marks, until the test kills
 * it with SIGKILL. `resume` runs the worker on what the kill left until the clock is `ready`.
 *
 *   node -r ./test/support/ts-child.js test/support/advance-crash-child.ts <dataDir> start
 *   node -r ./test/support/ts-child.js test/support/advance-crash-child.ts <dataDir> resume <clock id>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SystemClock, UlidGenerator } from '@tally/kernel';
import { CommandRuntime, Clocks, TestClocks, testClockAggregate, Worker, type ProcessManager } from '@tally/runtime';
import { openEmbeddedCells, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { CONTEXTS } from '../../apps/contexts';
import { timerChain, type MarkLink } from './timer-chain.process';

export const CRASH_LINKS = 40;
export const CRASH_T0 = '2026-01-01T00:00:00.000Z';
export const CRASH_TARGET = '2026-02-15T00:00:00.000Z';

const context: RequestContext = { tenantId: 'ten_crash', environment: 'sandbox', region: 'eu', actor: 'system', requestId: null, correlationId: null, causationId: null };

async function main(dataDir: string, phase: string, resumedClock?: string): Promise<void> {
  const clock = new SystemClock();
  const ids = new UlidGenerator(clock);
  const cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
  const runtime = new CommandRuntime(cells, new Clocks(clock), ids);
  const chain: ProcessManager = {
    ...timerChain(CRASH_LINKS),
    async dispatch(command, on) {
      const { customer_id, link } = (command as MarkLink).data;
      await runtime.execute(customerAggregate, customer_id, { type: 'UpdateCustomer', data: { customer_id, metadata: { link: String(link) } } }, on);
      process.stdout.write(`link ${link}\n`);
    },
  } as ProcessManager;
  const worker = Worker.over(cells, { projections: CONTEXTS.projections, processes: [chain], clock, ids, log: { error: (message, error) => process.stderr.write(`${message}: ${String(error)}\n`) } });
  await worker.start({ pollTimers: false });

  if (phase === 'start') {
    const clocks = new TestClocks(runtime, ids);
    const { id: clockId } = await clocks.create(context, { frozen_time: CRASH_T0, name: 'crash' });
    const customerId = ids.next('cus');
    const create = { type: 'CreateCustomer', data: { customer_id: customerId, email: null, name: null, billing_address: null, metadata: {} } } as const;
    await runtime.execute(customerAggregate, customerId, create, { ...context, clockId });
    await worker.settle();
    process.stdout.write(`advancing ${clockId} ${customerId}\n`);
    await clocks.advance(context, clockId, CRASH_TARGET);
    return;
  }

  for (;;) {
    const { resource } = await runtime.load(cells.cell('eu'), testClockAggregate, resumedClock!, context);
    if (resource?.status === 'ready') break;
    await sleep(20);
  }
  await worker.settle();
  await worker.stop();
  await cells.close();
  process.stdout.write('ready\n');
}

// The test imports the constants above; only a run as the entry point starts the child's work.
if (require.main === module) {
  main(process.argv[2], process.argv[3], process.argv[4]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
