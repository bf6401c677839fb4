import { Injectable } from '@nestjs/common';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceAggregate } from '@tally/invoicing';
import { paymentAggregate } from './payment.aggregate';

/**
 * The invoice was voided or written off by a policy: its payment still waiting (pending, or for the
 * customer's action) is canceled. One that succeeds anyway reaches a void invoice and is refunded.
 */
@Injectable()
export class OpenPaymentCancellation {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  async cancel(context: RequestContext, invoiceId: string): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    const paymentId = invoice.state.status === 'none' ? null : invoice.state.openPayment;
    if (!paymentId) return;
    const payment = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (payment.state.status !== 'pending' && payment.state.status !== 'requires_action') return;
    await this.commands.send(paymentAggregate, paymentId, { type: 'CancelPayment', data: { payment_id: paymentId } }, context);
  }
}
