/** Cards, bank debits and provider wallets (PayPal and the like): 180 days from the capture, the common provider limit. */
export const PROVIDER_REFUND_WINDOW_DAYS = 180;

/** When a payment captured at `capturedAt` through `provider` stops being refundable; null: never (Tally's own wallet holds the money). */
export function refundWindowEndsAt(provider: string, capturedAt: string): string | null {
  if (provider === 'wallet') return null;
  return new Date(Date.parse(capturedAt) + PROVIDER_REFUND_WINDOW_DAYS * 86_400_000).toISOString();
}
