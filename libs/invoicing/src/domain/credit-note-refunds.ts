/**
 * A refund and its credit note share their id's ULID: `rfd_X` issues `cn_X` (a refund asked on the
 * payment), and a credit note asked on the invoice with outcome `refund` is refunded as `rfd_X`, so
 * either names the other without a lookup.
 */
export const refundIdOfCreditNote = (creditNoteId: string): string => `rfd_${creditNoteId.slice('cn_'.length)}`;
export const creditNoteIdOfRefund = (refundId: string): string => `cn_${refundId.slice('rfd_'.length)}`;
