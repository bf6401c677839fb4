import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';

/**
 * The API's postings to one wallet take turns in this process: a burst of debits to a hot wallet
 * then appends one after the other instead of reading the same revision, failing the append and
 * deciding again until the runtime gives up (409 `request.concurrent_update`). The expected
 * revision still guards against writers of other processes and of the worker.
 */
@Injectable()
export class WalletTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  async inTurn<T>(context: RequestContext, walletId: string, work: () => Promise<T>): Promise<T> {
    const key = `${context.region}:${walletId}`;
    const previous = this.tails.get(key) ?? Promise.resolve();
    const turn = previous.then(work, work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await turn;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
