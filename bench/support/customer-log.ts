import type { CustomerCreated, CustomerUpdated } from '@tally/customers';
import type { EventMetadata, NewEvent } from '@tally/eventstore';
import { ManualClock, UlidGenerator } from '@tally/kernel';
import { streamName } from '@tally/runtime';
import type { Cell } from '@tally/cells';

type CustomerEvent = CustomerCreated | CustomerUpdated;

/** One create per `EVENTS_PER_CUSTOMER` events; the rest update earlier customers, picked at random. */
const EVENTS_PER_CUSTOMER = 4;

/** A small deterministic generator, so every run writes the same log. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function created(customerId: string, n: number): CustomerCreated {
  return {
    type: 'CustomerCreated',
    data: {
      customer_id: customerId,
      email: `customer${n}@example.com`,
      name: `Customer ${n}`,
      billing_address: { line1: `${n} Main Street`, city: 'Lisbon', region: null, country: 'PT', postal_code: '1100-001' },
      metadata: { plan: n % 3 === 0 ? 'pro' : 'starter', source: 'signup' },
    },
  };
}

/** The kinds of change an API client makes, in turn. */
function updated(customerId: string, n: number): CustomerUpdated {
  const changes: Omit<CustomerUpdated['data'], 'customer_id'>[] = [
    { name: `Customer ${n} (renamed)` },
    { email: `billing${n}@example.com`, metadata: { plan: 'pro', source: 'signup' } },
    { billing_address: { line1: `${n} Harbour Road`, city: 'Porto', region: null, country: 'PT', postal_code: '4000-001' } },
    { default_payment_method_id: `pm_${n}` },
  ];
  return { type: 'CustomerUpdated', data: { customer_id: customerId, ...changes[n % changes.length] } };
}

/**
 * Writes `count` customer events of one tenant to the cell, one append per event with the exact
 * expected revision, metadata and encrypted personal data as the command runtime writes them
 * (without the load-and-decide step). Returns how many customers the log holds.
 */
export async function writeCustomerLog(cell: Cell, count: number): Promise<number> {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const random = lcg(42);
  const tenantId = ids.next('ten');
  const actor = `key:${ids.next('key')}`;
  const customers: { id: string; revision: number }[] = [];
  for (let i = 0; i < count; i++) {
    const requestId = ids.next('req');
    const metadata: EventMetadata = {
      tenant_id: tenantId,
      environment: i % 5 === 0 ? 'live' : 'sandbox',
      actor,
      request_id: requestId,
      correlation_id: requestId,
      causation_id: requestId,
      occurred_at: clock.advance(250).toISOString(),
      schema_version: 1,
    };
    const isCreate = i % EVENTS_PER_CUSTOMER === 0;
    const customer = isCreate ? { id: ids.next('cus'), revision: -1 } : customers[Math.floor(random() * customers.length)];
    if (isCreate) customers.push(customer);
    const event: CustomerEvent = isCreate ? created(customer.id, customers.length) : updated(customer.id, i);
    const stored: NewEvent = { id: ids.ulid(), type: event.type, data: await cell.pii.encode(event.type, event.data), metadata };
    const expectedRevision = customer.revision < 0 ? 'no_stream' : customer.revision;
    await cell.events.append(streamName('customer', customer.id), [stored], { expectedRevision });
    customer.revision += 1;
  }
  return customers.length;
}
