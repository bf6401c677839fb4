import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Events per batch: the most `POST /v1/usage/batch` takes. */
export const BATCH_EVENTS = 1000;
export const METER = 'calls';

/** How each event's `external_id` is made: random UUIDs (v4, as clients usually send), or increasing per run. */
export type ExternalIds = 'random' | 'ordered';

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * A keep-alive HTTP/1.1 client of one server, over node:http (no retries, no pooling beyond the
 * agent's sockets), with the JSON bodies of usage batches built as strings.
 */
export class UsageClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  /** Batches built so far: each event's subscription follows on from the last batch's. */
  private built = 0;
  private quantity = 0;
  private readonly tag = randomUUID().slice(0, 8);

  constructor(
    url: string,
    private readonly key: string | undefined,
    private readonly subscriptions: readonly string[],
    sockets: number,
    private readonly ids: ExternalIds = 'random',
  ) {
    const { hostname, port } = new URL(url);
    this.host = hostname;
    this.port = Number(port);
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Events sent in every batch built so far. */
  get eventsBuilt(): number {
    return this.built * BATCH_EVENTS;
  }

  /** The sum of their quantities. */
  get quantityBuilt(): number {
    return this.quantity;
  }

  /**
   * The next batch's body: 1000 events, each of the next subscription in turn (a batch names them
   * all when there are up to 1000), quantity 1 to 3, timestamp now, a unique external id.
   */
  nextBatch(): { body: string; quantity: number } {
    const batch = this.built++;
    const timestamp = new Date().toISOString();
    const events: string[] = new Array<string>(BATCH_EVENTS);
    let quantity = 0;
    for (let i = 0; i < BATCH_EVENTS; i++) {
      const n = batch * BATCH_EVENTS + i;
      const subscription = this.subscriptions[n % this.subscriptions.length];
      const q = 1 + (n % 3);
      quantity += q;
      const externalId = this.ids === 'random' ? randomUUID() : `${this.tag}-${String(n).padStart(12, '0')}`;
      events[i] = `{"subscription_id":"${subscription}","meter":"${METER}","quantity":"${q}","timestamp":"${timestamp}","external_id":"${externalId}"}`;
    }
    this.quantity += quantity;
    return { body: `{"events":[${events.join(',')}]}`, quantity };
  }

  send(method: 'GET' | 'POST' | 'PATCH', path: string, body?: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const all: Record<string, string | number> = { ...headers };
      if (this.key && all.authorization === undefined) all.authorization = `Bearer ${this.key}`;
      if (body !== undefined) {
        all['content-type'] = 'application/json';
        all['content-length'] = Buffer.byteLength(body);
      }
      const sent = request({ host: this.host, port: this.port, method, path, agent: this.agent, headers: all }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }

  /** POSTs one batch; anything but a 202 accepting all 1000 events fails the run. */
  async postBatch(body: string): Promise<void> {
    const answer = await this.send('POST', '/v1/usage/batch', body);
    if (answer.status !== 202) throw new Error(`POST /v1/usage/batch answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    const accepted = (JSON.parse(answer.text) as { accepted?: number }).accepted;
    if (accepted !== BATCH_EVENTS) throw new Error(`a batch of ${BATCH_EVENTS} events was answered accepted: ${accepted}`);
  }

  /**
   * `batches` batches, `inFlight` at a time (closed loop: each connection sends its next batch
   * when the last one was answered). `beforeSend` may hold a send back (flow control), or end the
   * run by answering false; `acked` hears of each 202 with the events acknowledged so far.
   */
  async closedLoop(batches: number, inFlight: number, hooks: { beforeSend?: (batch: number) => Promise<boolean>; acked?: (events: number, at: number) => void } = {}): Promise<{ ms: number; events: number; quantity: number }> {
    let next = 0;
    let events = 0;
    let quantity = 0;
    const started = performance.now();
    const lane = async () => {
      while (next < batches) {
        const batch = next++;
        if ((await hooks.beforeSend?.(batch)) === false) {
          next = batches;
          return;
        }
        const built = this.nextBatch();
        await this.postBatch(built.body);
        events += BATCH_EVENTS;
        quantity += built.quantity;
        hooks.acked?.(events, performance.now());
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, batches) }, lane));
    return { ms: performance.now() - started, events, quantity };
  }

  /**
   * Open loop: a batch every 1000 / `perSecond` ms for `seconds`, sent on schedule whether or not
   * earlier ones were answered. Each latency runs from the moment the batch was due to its 202,
   * so a server that falls behind is charged for the wait (no coordinated omission).
   */
  async paced(perSecond: number, seconds: number): Promise<{ latenciesMs: number[]; ms: number; events: number; quantity: number; lateSendsMs: number }> {
    const total = Math.round(perSecond * seconds);
    const interval = 1000 / perSecond;
    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    let quantity = 0;
    let lateSendsMs = 0;
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      lateSendsMs = Math.max(lateSendsMs, performance.now() - due);
      const built = this.nextBatch();
      quantity += built.quantity;
      pending.push(this.postBatch(built.body).then(() => void latencies.push(performance.now() - due)));
    }
    await Promise.all(pending);
    return { latenciesMs: latencies, ms: performance.now() - started, events: total * BATCH_EVENTS, quantity, lateSendsMs };
  }

  /**
   * Each subscription's usage summary (`GET /v1/subscriptions/{id}/usage`, which waits until the
   * usage projection has counted every batch accepted before it), `inFlight` at a time; a 503
   * (`usage.not_counted_yet`: still not counted after the read's 10 s wait) is asked again and counted.
   */
  async usageTotals(inFlight: number): Promise<{ events: number; quantity: number; retries: number }> {
    let next = 0;
    let events = 0;
    let quantity = 0;
    let retries = 0;
    const lane = async () => {
      while (next < this.subscriptions.length) {
        const id = this.subscriptions[next++];
        for (;;) {
          const answer = await this.send('GET', `/v1/subscriptions/${id}/usage`);
          if (answer.status === 503) {
            retries++;
            continue;
          }
          if (answer.status !== 200) throw new Error(`GET /v1/subscriptions/${id}/usage answered ${answer.status}: ${answer.text.slice(0, 500)}`);
          const meter = (JSON.parse(answer.text) as { meters: { meter: string; quantity: string; events: number }[] }).meters.find((m) => m.meter === METER);
          events += meter?.events ?? 0;
          quantity += Number(meter?.quantity ?? 0);
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    return { events, quantity, retries };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
