import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { reservedNumberOf, type InvoiceIssue } from './domain/invoice-number-sequence';
import { INVOICE_NUMBERS, type NumberSequence } from './invoice.aggregate';

/** How many times a reservation is retried when another process keeps taking the next numbers first. */
const RESERVE_ATTEMPTS = 25;
/** The most invoices one reservation takes numbers for: well under the RECENT_RESERVATIONS the sequence remembers, so a finalisation retried after a crash still finds its number. */
export const MAX_RESERVED_AT_ONCE = 100;

interface Waiting {
  sequence: NumberSequence;
  context: RequestContext;
  invoiceId: string;
  issue?: InvoiceIssue;
  resolve: (number: string) => void;
  reject: (error: unknown) => void;
}

/**
 * Takes numbers from the tenant's gap-free sequence. One reservation of a sequence runs at a time
 * in this process (the expected revision still guards against other processes); the invoices
 * that ask meanwhile are reserved together by the next one, in one append, so a burst of
 * finalisations (a billing run) costs a write per batch rather than per invoice, and never spends
 * its retries racing for the same revision.
 */
@Injectable()
export class InvoiceNumbering {
  private readonly queues = new Map<string, Waiting[]>();
  /** Invoices whose issue in this process is between asking for its number and its append: when that is over. */
  private readonly issuing = new Map<string, Promise<void>>();

  constructor(private readonly runtime: CommandRuntime) {}

  /**
   * The invoice's number: the one it reserved before if the sequence remembers it, else the next.
   * `issue`: the invoice the number is for, when it does not exist yet (see InvoiceIssue).
   * `sequence`: the invoices' by default; credit notes have their own (`invoiceId` is then the credit note's).
   */
  reserve(context: RequestContext, invoiceId: string, issue?: InvoiceIssue, sequence: NumberSequence = INVOICE_NUMBERS): Promise<string> {
    const key = `${context.region}:${sequence.aggregate.type}:${sequence.idOf(context)}`;
    return new Promise((resolve, reject) => {
      const waiting = { sequence, context, invoiceId, ...(issue && { issue }), resolve, reject };
      const queue = this.queues.get(key);
      if (queue) return queue.push(waiting);
      this.queues.set(key, [waiting]);
      void this.drain(key);
    });
  }

  /**
   * Runs `issue` (which reserves the invoices' numbers and appends them) while the numbering
   * reaction, woken by the reservation, waits for it (`issued`) instead of racing it to the same
   * invoices: it then finds them issued and sends nothing. A crash leaves nothing waiting, and an
   * issue that fails lets the reaction complete the invoice from its reservation, as before.
   */
  async whileIssuing<T>(invoiceIds: readonly string[], issue: () => Promise<T>): Promise<T> {
    let over!: () => void;
    const done = new Promise<void>((resolve) => (over = resolve));
    for (const id of invoiceIds) this.issuing.set(id, done);
    try {
      return await issue();
    } finally {
      over();
      for (const id of invoiceIds) if (this.issuing.get(id) === done) this.issuing.delete(id);
    }
  }

  /** Once an issue of the invoice under way in this process (see whileIssuing) is over. */
  async issued(invoiceId: string): Promise<void> {
    await this.issuing.get(invoiceId);
  }

  private async drain(key: string): Promise<void> {
    // The finalisations that ask in this turn of the event loop join the first reservation.
    await new Promise((resolve) => setImmediate(resolve));
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_RESERVED_AT_ONCE);
      try {
        const numbers = await this.reserveAll(batch);
        for (const waiting of batch) waiting.resolve(numbers.get(waiting.invoiceId)!);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.queues.delete(key);
  }

  private async reserveAll(batch: readonly Waiting[]): Promise<Map<string, string>> {
    const invoiceIds = batch.map((waiting) => waiting.invoiceId);
    const invoices = batch.map(({ invoiceId, issue }) => ({ invoice_id: invoiceId, ...(issue && { issue }) }));
    const { sequence } = batch[0];
    const command = { type: 'ReserveInvoiceNumbers' as const, data: { invoices, prefix: sequence.prefixOf(batch[0].context) } };
    const context = sequenceContext(batch);
    for (let attempt = 1; ; attempt++) {
      try {
        const { state } = await this.runtime.execute(sequence.aggregate, sequence.idOf(context), command, context);
        return new Map(
          invoiceIds.map((invoiceId) => {
            const number = reservedNumberOf(state, invoiceId);
            if (!number) throw new Error(`The invoice number sequence forgot the reservation of ${invoiceId}`);
            return [invoiceId, number];
          }),
        );
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'request.concurrent_update') || attempt >= RESERVE_ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * Whose the reservation events are: the sequence belongs to the tenant, not to a test clock, and
 * invoices are reserved once each by id (no command id). One request's own reservation carries its
 * request and correlation; a batch carries only what its requests share.
 */
function sequenceContext(batch: readonly Waiting[]): RequestContext {
  const { clockId: _clock, commandId: _command, ...first } = batch[0].context;
  if (batch.length === 1) return first;
  const actors = new Set(batch.map((waiting) => waiting.context.actor));
  return { ...first, actor: actors.size === 1 ? first.actor : 'system:invoice_numbering', requestId: null, correlationId: null, causationId: null };
}
