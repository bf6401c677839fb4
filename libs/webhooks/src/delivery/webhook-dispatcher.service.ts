import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, TALLY_CONFIG, type Cell, type LeaseFence, type TallyConfig } from '@tally/cells';
import { Clocks, CommandRuntime, type CellService, type ServiceRunner } from '@tally/runtime';
import { WEBHOOK_OUTBOX } from '../outbox/webhook-outbox.projection';
import { PER_ENDPOINT_CONCURRENCY, WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSender } from './webhook-sender';

const logger = new Logger('webhooks');

/**
 * The worker's webhook dispatcher in each cell, all sharing one sender, with a socket for each
 * request an endpoint may have under way, and the configured time a receiver has to answer.
 */
@Injectable()
export class WebhookDispatch implements CellService, OnApplicationShutdown {
  readonly name = 'webhook_dispatcher';
  private readonly sender: WebhookSender;

  constructor(
    private readonly clocks: Clocks,
    private readonly commands: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(TALLY_CONFIG) config: TallyConfig,
  ) {
    this.sender = new WebhookSender({ maxSocketsPerOrigin: PER_ENDPOINT_CONCURRENCY, timeoutMs: config.webhookTimeoutMs });
  }

  runnerFor(cell: Cell, fence: LeaseFence): ServiceRunner {
    const log = { error: (message: string, error?: unknown) => logger.error(message, (error as Error)?.stack) };
    return new WebhookDispatcher({ cell, fence, clocks: this.clocks, ids: this.ids, commands: this.commands, sender: this.sender, outboxCheckpoint: WEBHOOK_OUTBOX, log });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
