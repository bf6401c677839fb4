import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listAll } from './list-all';
import type { TallyUnderTest } from './tally';

export interface ReceivedDelivery {
  /** The time it arrived, on the clock the receiver was given. */
  at: Date;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; aggregate_id: string; sequence: number; data: Record<string, unknown>; [field: string]: unknown };
  /** What the receiver answered: a status, or none (it let the request time out). */
  answered: number | 'nothing';
  /** When it arrived, and, for one left unanswered, when the sender gave up on it (`performance.now()`): to order what happened at two receivers. */
  arrivedMs: number;
  cutOffMs?: number;
}

/** How the receiver answers one request: a status after a delay, or nothing at all. */
export type Behaviour = (delivery: Omit<ReceivedDelivery, 'answered' | 'cutOffMs'>) => { status: number; delayMs?: number } | 'hang';

const answerOk: Behaviour = () => ({ status: 200 });

/** A webhook receiver on 127.0.0.1 for tests: it keeps every request it got, and answers as told. */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private readonly hanging = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    public behaviour: Behaviour,
  ) {}

  /** `now`: the clock arrivals are stamped with (the service's, to check signature times against). */
  static async start(behaviour: Behaviour = answerOk, now: () => Date = () => new Date()): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, behaviour);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const got = { at: now(), headers: request.headers, body, event: JSON.parse(body), arrivedMs: performance.now() };
        const answer = receiver.behaviour(got);
        if (answer === 'hang') {
          const unanswered: ReceivedDelivery = { ...got, answered: 'nothing' };
          receiver.received.push(unanswered);
          const release = () => response.destroy();
          receiver.hanging.add(release);
          response.on('close', () => {
            receiver.hanging.delete(release);
            unanswered.cutOffMs ??= performance.now();
          });
          return;
        }
        receiver.received.push({ ...got, answered: answer.status });
        setTimeout(() => response.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.status < 300 ? 'ok' : 'not now'), answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The deliveries answered 2xx, in the order they arrived. */
  get acknowledged(): ReceivedDelivery[] {
    return this.received.filter((delivery) => typeof delivery.answered === 'number' && delivery.answered < 300);
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Resolves once `condition` holds, checking every 10 ms; fails after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Settles, then moves the service's clock to the endpoint's next retry and settles again, until
 * none of its deliveries is pending; answers how many moves that took. Settled, a pending delivery
 * is one whose retry is not due yet, or one queued behind it.
 */
export async function settleRetries(tally: TallyUnderTest, api: ReturnType<TallyUnderTest['as']>, endpointId: string): Promise<number> {
  for (let moves = 0; ; moves++) {
    await tally.settle();
    const pending = await listAll<{ next_attempt_at: string | null }>(api, `/v1/admin/webhook-endpoints/${endpointId}/deliveries?status=pending`);
    if (pending.length === 0) return moves;
    if (moves === 100) throw new Error(`${pending.length} deliveries still pending after 100 retries`);
    const next = pending.flatMap((delivery) => (delivery.next_attempt_at === null ? [] : [delivery.next_attempt_at])).sort()[0];
    if (!(next > tally.clock.now().toISOString())) throw new Error(`settled, yet a pending delivery is due (${next}) or none waits for a retry`);
    tally.clock.set(next);
  }
}
