import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';

export type DispatchOutcome = 'ok' | 'outage' | 'refuse';

/**
 * The target of a test's commands: records each dispatch (its command id and order) and answers
 * the nth as `behaviour` says: done, an outage (a plain error) or a refusal (a domain error).
 */
export class ScriptedDispatches {
  readonly calls: { commandId: string | undefined; orderId: string }[] = [];
  behaviour: (attempt: number) => DispatchOutcome = () => 'ok';

  protected receive(orderId: string, context: RequestContext): void {
    this.calls.push({ commandId: context.commandId, orderId });
    const outcome = this.behaviour(this.calls.length);
    if (outcome === 'outage') throw new Error('connect ECONNREFUSED');
    if (outcome === 'refuse') throw DomainError.conflict('order.closed', 'The order is closed');
  }
}
