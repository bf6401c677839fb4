import { Inject, Injectable } from '@nestjs/common';
import type { FieldError, IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime } from '@tally/runtime';
import { acceptUsageBatch, type EventField } from './domain/usage-batch.decide';
import { parseUsageEvent, type UsageDraft } from './domain/usage-event.parse';
import type { UsageBatchAccepted, UsageRecord } from './domain/usage.events';
import { appendToIngestStream } from './usage-ingest-stream';
import { MeteredSubscriptions } from './metered-subscriptions';
import { UsageDuplicates } from './usage-duplicates';
import { timeOrderedUuid } from './time-ordered-uuid';

/** An accepted batch: its events as stored, and for each that copies an event accepted before, that event (UsageDuplicates). */
export interface AcceptedUsage {
  batchId: string;
  records: UsageRecord[];
  originals: (UsageRecord | undefined)[];
}

/** Reads the body's events, each under `at(index)`: a hole for each that fails, every problem of every event in `problems`. */
export function parseUsageEvents(inputs: readonly unknown[], at: (index: number) => string): { drafts: (UsageDraft | undefined)[]; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const drafts = inputs.map((input, index) => parseUsageEvent(input, at(index), problems));
  return { drafts, problems };
}

/**
 * Checks a batch against its subscriptions (each read once), then appends it as one event to the
 * tenant's ingest stream: one atomic write, whatever the store. Counting and dedupe happen in
 * the usage projection, in log order; the answer already tells the copies it can (UsageDuplicates).
 */
@Injectable()
export class UsageIngest {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly metered: MeteredSubscriptions,
    private readonly duplicates: UsageDuplicates,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Usage events as a request sends them (already read), to accept all or none. `drafts` holds a
   * hole for each event that failed to be read or routed, its problems in `problems`: the refusal
   * names those too. `fieldOf` names an event's fields in problems (`events[3].meter`);
   * `externalIdOf` gives an event without a dedupe key its key (the request's Idempotency-Key).
   */
  async accept(
    context: RequestContext,
    drafts: readonly (UsageDraft | undefined)[],
    fieldOf: EventField,
    externalIdOf: (index: number) => string | undefined = () => undefined,
    problems: readonly FieldError[] = [],
  ): Promise<AcceptedUsage> {
    const cell = this.runtime.cellOf(context);
    const subscriptions = await this.metered.ofAll(context, new Set(drafts.flatMap((draft) => (draft ? [draft.subscription_id] : []))));
    const now = await this.clocks.now(cell);
    const keyed = drafts.map((draft, index) => draft && { ...draft, external_id: draft.external_id ?? externalIdOf(index) ?? timeOrderedUuid(now) });
    const records = acceptUsageBatch(keyed, subscriptions, fieldOf, problems);
    const checked = await this.duplicates.check(cell, records, now);
    const batchId = this.ids.next('ubat');
    const accepted: UsageBatchAccepted = { type: 'UsageBatchAccepted', data: { batch_id: batchId, events: records } };
    checked.appended(await appendToIngestStream(cell, context, this.ids.ulid(), accepted, now));
    return { batchId, records, originals: checked.originals };
  }
}
