/**
 * The victim of the crash test: writes customers and raw multi-event batches as fast as it can
 * while a worker projects them, and prints one line per write the store acknowledged. It never
 * stops on its own; the test kills it with SIGKILL.
 *
 *   node -r ./test/support/ts-child.js test/support/crash-child.ts <dataDir>
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DomainError, SystemClock, UlidGenerator } from '@tally/kernel';
import type { EventMetadata, NewEvent } from '@tally/eventstore';
import { Clocks, CommandRuntime, Worker } from '@tally/runtime';
import { openEmbeddedCells, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { CONTEXTS } from '../../apps/contexts';

const CRASH_TENANT = 'ten_crash';
const BATCH_SIZE = 5;
/** Concurrent writers, so that commands also race each other and retry. */
const LANES = 3;

const context: RequestContext = {
  tenantId: CRASH_TENANT,
  environment: 'sandbox',
  region: 'eu',
  actor: 'system',
  requestId: null,
  correlationId: null,
  causationId: null,
};

async function main(dataDir: string): Promise<void> {
  const clock = new SystemClock();
  const ids = new UlidGenerator(clock);
  const cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
  const cell = cells.cell('eu');
  const runtime = new CommandRuntime(cells, new Clocks(clock), ids);
  const worker = Worker.over(cells, {
    projections: CONTEXTS.projections,
    clock,
    ids,
    log: { error: (message, error) => process.stderr.write(`${message}: ${String(error)}\n`) },
  });
  await worker.start({ pollTimers: false });

  const customers: string[] = [];
  let written = 0;
  const ack = (line: string) => process.stdout.write(`ack ${line}\n`);

  const createCustomer = async () => {
    const id = ids.next('cus');
    const n = written;
    const { revision } = await runtime.execute(
      customerAggregate,
      id,
      { type: 'CreateCustomer', data: { customer_id: id, email: `c${n}@example.com`, name: `Customer ${n}`, billing_address: null, metadata: { n: String(n) } } },
      context,
    );
    customers.push(id);
    ack(`customer ${id} ${revision}`);
  };

  const updateCustomer = async (id: string) => {
    const { revision } = await runtime.execute(
      customerAggregate,
      id,
      { type: 'UpdateCustomer', data: { customer_id: id, name: `Renamed ${written}`, metadata: { step: String(written) } } },
      context,
    );
    ack(`customer ${id} ${revision}`);
  };

  const appendBatch = async () => {
    const stream = `batch-${ids.ulid()}`;
    const metadata: EventMetadata = {
      tenant_id: CRASH_TENANT,
      environment: 'sandbox',
      actor: 'system',
      request_id: null,
      causation_id: null,
      correlation_id: null,
      occurred_at: clock.now().toISOString(),
      schema_version: 1,
    };
    const events: NewEvent[] = Array.from({ length: BATCH_SIZE }, (_, i) => ({ id: ids.ulid(), type: 'CrashBatchPart', data: { part: i }, metadata }));
    await cell.events.append(stream, events, { expectedRevision: 'no_stream' });
    ack(`batch ${stream} ${BATCH_SIZE}`);
  };

  const lane = async () => {
    for (;;) {
      const step = written++;
      try {
        if (step % 3 === 2) await appendBatch();
        else if (step % 3 === 0 || customers.length === 0) await createCustomer();
        else await updateCustomer(customers[Math.floor(Math.random() * customers.length)]);
      } catch (error) {
        // Lanes updating the same customer may exhaust the runtime's retries; that write was refused, not lost.
        if (!(error instanceof DomainError && error.code === 'request.concurrent_update')) throw error;
      }
      // Lets I/O (stdout, the subscriptions' fallback poll) run between writes.
      await yieldToLoop();
    }
  };

  await Promise.all(Array.from({ length: LANES }, lane));
}

main(process.argv[2]).catch((error) => {
  process.stderr.write(`crash child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
