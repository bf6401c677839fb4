import type { RecordedEvent } from '@tally/eventstore';

/**
 * `work` on an event, done once however often it is asked for: a follower with lanes needs the
 * same answer (an event's routing, decrypted) to pick the event's lane and then to handle it.
 */
export function oncePerEvent<T>(work: (event: RecordedEvent) => Promise<T>): (event: RecordedEvent) => Promise<T> {
  const done = new WeakMap<RecordedEvent, Promise<T>>();
  return (event) => {
    let answer = done.get(event);
    if (answer === undefined) {
      answer = work(event);
      done.set(event, answer);
    }
    return answer;
  };
}
