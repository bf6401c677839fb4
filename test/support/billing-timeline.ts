import type { TallyUnderTest } from './tally';

type Api = ReturnType<TallyUnderTest['as']>;

export interface TimelineEvent {
  type: string;
  created_at: string;
  aggregate_id: string;
}

export interface InvoiceLineSeen {
  code: string | null;
  description: string;
  amount: string;
  period_start: string;
  period_end: string;
  price_version: number | null;
  proration: boolean;
}

export interface InvoiceSeen {
  id: string;
  status: string;
  billing_reason: string;
  period_start: string;
  period_end: string;
  total: string;
  created_at: string;
  lines: InvoiceLineSeen[];
}

/**
 * A subscription's billing as Kill Bill's integration tests read it: the public events of the
 * subscription and of its invoices in the order they happened, and its invoices with their lines.
 * `since` counts what was already seen, so each step asserts exactly the events it caused.
 */
export class BillingTimeline {
  private seen = 0;

  constructor(
    private readonly tally: TallyUnderTest,
    private readonly api: Api,
    readonly clock: string,
    readonly subscription: string,
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

  async invoices(): Promise<InvoiceSeen[]> {
    const page = await this.api.get(`/v1/invoices?subscription_id=${this.subscription}&limit=100&sort=created_at:asc`).expect(200);
    return page.body.data as InvoiceSeen[];
  }

  /** The last invoice, as [code, amount, period_start, period_end, price_version, proration] per line. */
  async lastInvoiceLines(): Promise<(string | number | boolean | null)[][]> {
    const invoices = await this.invoices();
    return invoices[invoices.length - 1].lines.map((line) => [line.code, line.amount, line.period_start, line.period_end, line.price_version, line.proration]);
  }

  private async events(): Promise<TimelineEvent[]> {
    const ids = [this.subscription, ...(await this.invoices()).map((invoice) => invoice.id)];
    const events: TimelineEvent[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: unknown[]; next_cursor: string | null } } = await this.api.get(`/v1/events?aggregate_id=${ids.join(',')}&sort=created_at:asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      events.push(...(page.body.data as TimelineEvent[]));
      cursor = page.body.next_cursor;
    } while (cursor);
    return events;
  }
}
