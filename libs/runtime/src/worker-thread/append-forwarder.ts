import { AppendNotifier } from '@tally/eventstore';
import type { Appended } from './messages';

/**
 * Hands every append this thread makes to `send`, the streams of each SQLite file collected and
 * sent once per turn of the event loop, so a burst of requests costs one message. Returns the
 * function that stops forwarding.
 */
export function forwardAppends(send: (message: Appended) => void): () => void {
  let pending: Map<string, Set<string>> | undefined;
  const flush = () => {
    const appends = [...pending!].map(([file, streams]): [string, string[]] => [file, [...streams]]);
    pending = undefined;
    send({ kind: 'appended', appends });
  };
  return AppendNotifier.tap((file, stream) => {
    if (!pending) {
      pending = new Map();
      setImmediate(flush);
    }
    let streams = pending.get(file);
    if (!streams) pending.set(file, (streams = new Set()));
    streams.add(stream);
  });
}
