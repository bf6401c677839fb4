import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { BILLING_CRASH_CUSTOMERS, BILLING_CRASH_INVOICES, BILLING_CRASH_SUBSCRIPTIONS_PER_CUSTOMER, BILLING_CRASH_T0, BILLING_CRASH_TARGET } from './support/billing-crash-child';
import type { InvoiceResource } from '@tally/invoicing';
import type { SubscriptionResource } from '@tally/subscriptions';
import { listAll } from './support/list-all';
import { TallyUnderTest } from './support/tally';
import { startTsChild } from './support/ts-child-process';
import { scaled } from './support/time-scale';

/** A random delay after the chosen line, so the kill does not always land just after a finalisation. */
const KILL_JITTER_MS = 40;
const CHILD_LIMIT_MS = scaled(90_000);

/**
 * Where the kills land: after this many invoices were finalised in the advance, and, for a second
 * kill, after this many more once a restarted Tally resumed it (null: the resumed run finishes).
 * The advance finalises about 420 invoices with the default ten customers.
 */
const KILL_POINTS: { name: string; firstKill: number; secondKill: number | null }[] = [
  { name: 'killed after 3 invoices', firstKill: 3, secondKill: null },
  { name: 'killed after 30% of the invoices, and after 15% more once resumed', firstKill: Math.round(BILLING_CRASH_INVOICES * 0.3), secondKill: Math.round(BILLING_CRASH_INVOICES * 0.15) },
];

/** Runs the child to its end, or SIGKILLs it once `killWhen` accepts a line it printed. */
async function runChild(args: string[], killWhen: (line: string) => boolean = () => false): Promise<{ lines: string[]; signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  const lines: string[] = [];
  let killing = false;
  const victim = startTsChild('billing-crash-child.ts', args, (line) => {
    lines.push(line);
    if (!killing && killWhen(line)) {
      killing = true;
      setTimeout(() => victim.child.kill('SIGKILL'), Math.random() * KILL_JITTER_MS);
    }
  });
  const limit = setTimeout(() => victim.child.kill('SIGKILL'), CHILD_LIMIT_MS);
  const { code, signal } = await victim.closed;
  clearTimeout(limit);
  return { lines, signal, code, stderr: victim.stderr() };
}

describe('a billing run killed with SIGKILL', () => {
  const dataDirs: string[] = [];

  afterAll(() => {
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(KILL_POINTS)('$name: once restarted, every due period has exactly one invoice', async ({ firstKill, secondKill }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-billing-crash-'));
    dataDirs.push(dataDir);

    const killed = await runChild([dataDir, 'start'], (line) => line === `finalized ${firstKill}`);
    expect({ signal: killed.signal, stderr: killed.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    expect(killed.lines).not.toContain('done');
    const [key, clock] = killed.lines.find((line) => line.startsWith('ready '))!.split(' ').slice(1);

    if (secondKill !== null) {
      const again = await runChild([dataDir, 'resume'], (line) => line === `finalized ${secondKill}`);
      expect({ signal: again.signal, stderr: again.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    }

    // The last restart runs in this process: its worker resumes the advance, then the API answers.
    const tally = await TallyUnderTest.start({ dataDir });
    try {
      await tally.settle();
      const api = tally.as(key);
      expect((await api.get(`/v1/test-clocks/${clock}`).expect(200)).body).toMatchObject({ status: 'ready', frozen_time: BILLING_CRASH_TARGET });
      expect((await api.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);

      const subscriptions = await listAll<SubscriptionResource>(api, '/v1/subscriptions');
      const invoices = await listAll<InvoiceResource>(api, '/v1/invoices');
      expect(subscriptions).toHaveLength(BILLING_CRASH_CUSTOMERS * BILLING_CRASH_SUBSCRIPTIONS_PER_CUSTOMER);

      const faults: string[] = [];
      for (const subscription of subscriptions) {
        const own = invoices.filter((invoice) => invoice.subscription_id === subscription.id).sort((a, b) => Date.parse(a.period_start!) - Date.parse(b.period_start!));
        const starts = own.map((invoice) => invoice.period_start);
        const duplicated = starts.filter((start, i) => starts.indexOf(start) !== i);
        if (duplicated.length > 0) faults.push(`${subscription.id}: more than one invoice for the periods from ${duplicated.join(', ')}`);
        // Contiguous periods from its activation (the trial's end, else its creation) to the period the clock is in.
        const first = subscription.trial_end ?? BILLING_CRASH_T0;
        if (starts[0] !== first) faults.push(`${subscription.id}: the first invoiced period starts ${starts[0]}, not ${first}`);
        for (let i = 1; i < own.length; i++) {
          if (own[i].period_start !== own[i - 1].period_end) faults.push(`${subscription.id}: a gap or an overlap between ${own[i - 1].period_end} and ${own[i].period_start}`);
        }
        const last = own.at(-1);
        if (subscription.status !== 'active' || last?.period_start !== subscription.current_period_start || !(Date.parse(last.period_end!) > Date.parse(BILLING_CRASH_TARGET))) {
          faults.push(`${subscription.id}: ${subscription.status} in the period from ${subscription.current_period_start}, last invoiced ${last?.period_start} → ${last?.period_end}`);
        }
      }
      for (const invoice of invoices) {
        if (!['open', 'paid'].includes(invoice.status) || invoice.number === null) faults.push(`${invoice.id}: ${invoice.status}, number ${invoice.number}`);
        if (!['subscription_create', 'subscription_cycle'].includes(invoice.billing_reason)) faults.push(`${invoice.id}: billed for ${invoice.billing_reason}`);
        if (!new Big(invoice.subtotal).minus(invoice.discount).plus(invoice.tax).eq(invoice.total)) faults.push(`${invoice.id}: total ${invoice.total} ≠ ${invoice.subtotal} − ${invoice.discount} + ${invoice.tax}`);
      }
      expect(faults).toEqual([]);

      // Every invoice numbered once, from one gap-free sequence.
      const numbers = invoices.map((invoice) => invoice.number!);
      expect(new Set(numbers.map((number) => number.split('-')[0])).size).toBe(1);
      expect(numbers.map((number) => Number(number.split('-')[1])).sort((a, b) => a - b)).toEqual(Array.from({ length: invoices.length }, (_, i) => i + 1));
    } finally {
      await tally.stop({ keepData: true });
    }
  }, scaled(240_000));
});
