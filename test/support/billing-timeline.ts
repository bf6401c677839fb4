import type { InvoiceResource } from '@tally/invoicing';
import { listAll } from './list-all';
import type { TallyUnderTest } from './tally';

type Api = ReturnType<TallyUnderTest['as']>;

export interface TimelineEvent {
  type: string;
  created_at: string;
  aggregate_id: string;
}

/**
 * A subscription's billing as Kill Bill's integration tests read it: the public events of the
 * subscription and of its invoices (and, with `payments`, of the invoices' payments) in the order
 * they happened, and its invoices with their lines. `since` counts what was already seen, so each
 * step asserts exactly the events it caused.
 */
export class BillingTimeline {
  private seen = 0;

  constructor(
    private readonly tally: TallyUnderTest,
    private readonly api: Api,
    readonly clock: string,
    readonly subscription: string,
    private readonly options: { payments?: boolean } = {},
  ) {}

  /** Advances the clock, lets every timer fire and every projection catch up, and answers the public events that happened since the last step. */
  async advance(to: string): Promise<[string, string][]> {
    await this.api.post(`/v1/test-clocks/${this.clock}/advance`, { frozen_time: to }).expect(200);
    await this.tally.settle();
    return this.newEvents();
  }

  /** The public events since the last look, as [type, created_at], oldest first. */
  async newEvents(): Promise<[string, string][]> {
    await this.tally.settle();
    const all = await this.events();
    const fresh = all.slice(this.seen);
    this.seen = all.length;
    return fresh.map((event) => [event.type, event.created_at]);
  }

  invoices(): Promise<InvoiceResource[]> {
    return listAll<InvoiceResource>(this.api, `/v1/invoices?subscription_id=${this.subscription}&sort=created_at:asc`);
  }

  /** The last invoice, as [code, amount, period_start, period_end, price_version, proration] per line. */
  async lastInvoiceLines(): Promise<(string | number | boolean | null)[][]> {
    const invoices = await this.invoices();
    return invoices[invoices.length - 1].lines.map((line) => [line.code, line.amount, line.period_start, line.period_end, line.price_version, line.proration]);
  }

  private async events(): Promise<TimelineEvent[]> {
    const invoices = await this.invoices();
    const payments = this.options.payments ? invoices.flatMap((invoice) => invoice.payments) : [];
    const ids = [this.subscription, ...invoices.map((invoice) => invoice.id), ...payments];
    return listAll<TimelineEvent>(this.api, `/v1/events?aggregate_id=${ids.join(',')}&sort=created_at:asc`);
  }
}
