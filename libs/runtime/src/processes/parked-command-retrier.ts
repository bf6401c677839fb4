import type { Clock } from '@tally/kernel';
import type { Cell, Environment, RequestContext } from '@tally/cells';
import type { RunnerLog } from '../runners/supervise';
import type { ParkedCommands } from './parked-commands';
import { PARKED_COMMANDS, type ParkedCommandDoc } from './parked-commands.projection';

/** How long a command stays parked before it is tried again on its own. */
export const PARKED_RETRY_AFTER_MS = 3_600_000;
const LOOK_EVERY_MS = 60_000;
const PAGE = 100;

/**
 * Tries every parked command again once it has been parked for an hour (by this runner's watch,
 * on the system clock), so a step parked on a cause that has since been fixed (a tax table that
 * lacked a date, a provider that was down) goes on without an operator; one that still fails is
 * parked again, and tried again an hour later. `POST /v1/admin/parked-commands/{id}/retry` does
 * the same at once.
 */
export class ParkedCommandRetrier {
  /** When this runner first saw each command parked (ms of the system clock): a restart starts the hour again. */
  private readonly seen = new Map<string, number>();
  private handle: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;

  constructor(
    private readonly cell: Cell,
    private readonly parked: ParkedCommands,
    private readonly clock: Clock,
    private readonly log: RunnerLog,
  ) {}

  start(): void {
    this.handle = setInterval(() => void this.tick().catch((error) => this.log.error('retrying parked commands failed', error)), LOOK_EVERY_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.handle);
    await this.ticking;
  }

  /** Retries the commands parked an hour or more; returns how many. */
  tick(): Promise<number> {
    this.ticking ??= this.retryDue().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async retryDue(): Promise<number> {
    const now = this.clock.now().getTime();
    const parkedNow = new Set<string>();
    let retried = 0;
    for (let after: { value: string; id: string } | undefined; ; ) {
      const page = await this.cell.readModels.find<ParkedCommandDoc>(PARKED_COMMANDS, { sort: { field: 'created_at', direction: 'asc' }, limit: PAGE, after });
      for (const doc of page.items) {
        parkedNow.add(doc.id);
        const since = this.seen.get(doc.id) ?? now;
        this.seen.set(doc.id, since);
        if (now - since < PARKED_RETRY_AFTER_MS) continue;
        const context: RequestContext = {
          tenantId: doc.tenant_id,
          environment: doc.environment as Environment,
          region: this.cell.region,
          actor: 'system:parked_command_retrier',
          requestId: null,
          correlationId: null,
          causationId: null,
        };
        await this.parked.retry(context, doc.id);
        this.seen.delete(doc.id);
        retried++;
      }
      const last = page.items.at(-1);
      if (!page.hasMore || !last) break;
      after = { value: last.created_at, id: last.id };
    }
    for (const id of this.seen.keys()) if (!parkedNow.has(id)) this.seen.delete(id);
    return retried;
  }
}
