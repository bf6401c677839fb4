/**
 * How the sandbox answers a refund, by its amount's cents (docs/refunds.md): `.13` is declined
 * (nothing refunded), `.23` meets an outage (nothing refunded, nothing remembered: the same key
 * asked again meets it again), `.43` is refunded but its answer is lost once (a timeout: the same
 * key asked again answers the refund made). Any other amount is refunded.
 */
export type RefundBehaviour = 'refund' | 'decline' | 'outage' | 'answer_lost_once';

const BY_CENTS: ReadonlyMap<string, RefundBehaviour> = new Map([
  ['13', 'decline'],
  ['23', 'outage'],
  ['43', 'answer_lost_once'],
]);

export function refundBehaviourOf(amount: string): RefundBehaviour {
  const cents = (amount.split('.')[1] ?? '').padEnd(2, '0').slice(0, 2);
  return BY_CENTS.get(cents) ?? 'refund';
}
