import { derivedId } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import { INVOICE_ID_PREFIX } from '@tally/invoicing';
import type { InvoiceReissue } from './invoice-reissue';
import { LateUsageRebillReaction } from './late-usage-rebill.reaction';

const reaction = new LateUsageRebillReaction({} as InvoiceReissue);
const settled = (data: object, type = 'LateUsageSettled'): RecordedEvent => ({
  id: '01JSETTLED0000000000000000',
  type,
  data: { subscription_id: 'sub_1', period_start: '2026-06-01T00:00:00.000Z', period_end: '2026-07-01T00:00:00.000Z', batch_id: 'ubat_1', outcome: 'rebilled', voided_invoice_id: 'in_1', ...data },
  metadata: { tenant_id: 'ten_1', environment: 'sandbox', actor: 'reaction:late_usage', request_id: null, causation_id: null, correlation_id: null, occurred_at: '2026-07-01T12:00:00.000Z', schema_version: 2 },
  stream: 'usage_ingest-ten_1-sandbox',
  revision: 3,
  position: 10n,
});

describe('late usage rebill reaction', () => {
  it('reissues the voided invoice of a rebilled period, under an id derived from the usage event', () => {
    expect(reaction.commandOf(settled({}))).toEqual({
      lane: 'sub_1',
      command: {
        type: 'ReissueWithLateUsage',
        data: {
          subscription_id: 'sub_1',
          voided_invoice_id: 'in_1',
          invoice_id: derivedId(INVOICE_ID_PREFIX, ['01JSETTLED0000000000000000', 'rebill']),
          usage_period: { start: '2026-06-01T00:00:00.000Z', end: '2026-07-01T00:00:00.000Z' },
        },
      },
    });
  });

  it('leaves deferred late usage, outcomes recorded before it issued the invoice (no period end), and other events alone', () => {
    expect(reaction.commandOf(settled({ outcome: 'deferred', voided_invoice_id: null }))).toBeUndefined();
    expect(reaction.commandOf(settled({ period_end: null }))).toBeUndefined();
    expect(reaction.commandOf(settled({}, 'UsageBatchAccepted'))).toBeUndefined();
  });
});
