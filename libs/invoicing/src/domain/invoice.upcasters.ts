import type { Upcaster } from '@tally/kernel';
import type { CreditNoteIssued } from './invoice.events';

type CreditNoteIssuedV1 = Omit<CreditNoteIssued['data'], 'outcome' | 'refund_id' | 'payment_id' | 'lines'> & { lines: { line_id: string; amount: string }[] };

/** Version 2 of CreditNoteIssued has an outcome and the refund and payment it came from; a version-1 note did nothing with what it credited. */
export const invoiceUpcasters: Upcaster[] = [
  {
    eventType: 'CreditNoteIssued',
    fromVersion: 1,
    upcast: (data: CreditNoteIssuedV1): CreditNoteIssued['data'] => ({
      ...data,
      lines: data.lines.map((line) => ({ ...line, tax_amount: '0' })),
      outcome: { kind: 'none', refund_status: null },
      refund_id: null,
      payment_id: null,
    }),
  },
];
