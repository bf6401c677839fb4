import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, type BatchCommand, type CommandOutcome } from '@tally/runtime';
import type { WalletCommand, WalletState } from './domain/wallet.decider';
import { walletAggregate } from './wallet.aggregate';
import type { WalletResource } from './wallet.view';

type Written = CommandOutcome<WalletState, WalletResource>;

interface Queued extends BatchCommand<WalletState, WalletCommand> {
  resolve: (outcome: Written) => void;
  reject: (reason: unknown) => void;
}

/** How many queued postings one turn decides and appends at most. */
const MAX_BATCH = 100;

/**
 * The API's postings to one wallet take turns in this process, and a turn commits as a group: the
 * postings that arrive while a turn runs queue, and the next turn loads the wallet once, decides
 * them one after the other and appends all their events in one append (see
 * CommandRuntime.executeBatch), each posting answered with its own outcome or refusal. A hot
 * wallet's burst then costs one append per turn instead of one per posting, and never races
 * itself; the expected revision still guards against writers of other processes and of the worker.
 */
@Injectable()
export class WalletTurns {
  /** The postings waiting for each wallet's next turn; a wallet is listed while its turn runs. */
  private readonly waiting = new Map<string, Queued[]>();

  constructor(private readonly runtime: CommandRuntime) {}

  post(context: RequestContext, walletId: string, command: BatchCommand<WalletState, WalletCommand>['command']): Promise<Written> {
    const key = `${context.region}:${context.tenantId}:${context.environment}:${walletId}`;
    return new Promise<Written>((resolve, reject) => {
      const queued = { command, context, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(queued);
        return;
      }
      this.waiting.set(key, []);
      void this.turns(key, walletId, [queued]);
    });
  }

  /** Runs the wallet's turns until no posting waits. */
  private async turns(key: string, walletId: string, first: Queued[]): Promise<void> {
    for (let batch = first; batch.length > 0; batch = this.next(key)) {
      const settled = await this.runtime.executeBatch(walletAggregate, walletId, batch).catch((reason: unknown) => batch.map((): PromiseRejectedResult => ({ status: 'rejected', reason })));
      settled.forEach((outcome, i) => (outcome.status === 'fulfilled' ? batch[i].resolve(outcome.value) : batch[i].reject(outcome.reason)));
    }
  }

  /** The postings of the wallet's next turn (none: the wallet is no longer listed). */
  private next(key: string): Queued[] {
    const queue = this.waiting.get(key)!;
    const batch = queue.splice(0, MAX_BATCH);
    if (batch.length === 0) this.waiting.delete(key);
    return batch;
  }
}
