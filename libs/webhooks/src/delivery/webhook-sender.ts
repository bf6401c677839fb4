import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { addressRefusal, type DeliveryMode } from './address-policy';

const USER_AGENT = 'Tally-Webhooks/1.0';
/** An idle keep-alive socket is dropped before the usual 5 s server keep-alive timeout closes it under a new request. */
const IDLE_SOCKET_MS = 4_000;

/** One delivery attempt: a POST of `body` with `headers` to `url`. */
export interface WebhookRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** Which addresses the receiver may have: see `addressRefusal`. */
  mode: DeliveryMode;
}

/** What came of one delivery attempt. */
export interface WebhookResponse {
  /** HTTP status, or null when no answer came. Redirects are not followed: a 3xx is just a status. */
  status: number | null;
  /** The response body as text, cut to `responseBodyLimit` bytes (never inside a UTF-8 character). */
  body: string;
  durationMs: number;
  /**
   * Why no answer came: `timeout`, `address_refused: <reason>`, `connection_error: <code>` or
   * `invalid_request: <reason>`. Null when a status arrived, even if its body then timed out or broke off.
   */
  error: string | null;
}

export interface WebhookSenderOptions {
  /** The whole attempt, from lookup to the body's end. Default 10 000. */
  timeoutMs?: number;
  /** Bytes of the response body kept. Default 4096. */
  responseBodyLimit?: number;
  /** Sockets one receiver (origin) may hold at once, so a slow one cannot take them all. Default 16. */
  maxSocketsPerOrigin?: number;
  /** Bytes read before the response is cut off; reading a short body to its end lets its socket be reused. Default 64 KiB. */
  maxResponseBytesRead?: number;
  /** Origins with a pool of keep-alive sockets; the least recently used one beyond this is let go. Default 256. */
  maxOrigins?: number;
}

/** The reason a lookup found an address the delivery may not connect to. */
class AddressRefused extends Error {}

/**
 * Resolves the host and refuses it unless every address it has is allowed in this mode. The socket
 * then connects to one of the addresses checked here, so a second answer from DNS cannot swap them.
 */
function guardedLookup(mode: DeliveryMode): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true as const }, (error, addresses) => {
      if (error) return callback(error, '');
      const refusal = addresses.map(({ address }) => addressRefusal(address, mode)).find((reason) => reason !== undefined);
      if (refusal !== undefined) return callback(new AddressRefused(refusal), '');
      // net asks for every address when it may try both families (autoSelectFamily), otherwise for one.
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function failed(started: number, error: string): WebhookResponse {
  return { status: null, body: '', durationMs: performance.now() - started, error };
}

function failureOf(error: unknown): string {
  if (error instanceof AddressRefused) return `address_refused: ${error.message}`;
  const { code, message } = error as NodeJS.ErrnoException;
  return `connection_error: ${code ?? message}`;
}

/** The bytes as text; when more may have followed, a character cut at the end is dropped rather than mangled. */
function textOf(bytes: Buffer, whole: boolean): string {
  const decoder = new StringDecoder('utf8');
  const text = decoder.write(bytes);
  return whole ? text + decoder.end() : text;
}

/** Posts webhook deliveries over HTTP(S), keeping a bounded pool of keep-alive sockets per receiver. */
export class WebhookSender {
  private readonly timeoutMs: number;
  private readonly responseBodyLimit: number;
  private readonly maxSocketsPerOrigin: number;
  private readonly maxResponseBytesRead: number;
  private readonly maxOrigins: number;
  /** Keyed by mode and origin: a socket opened for a sandbox delivery must never carry a live one. */
  private readonly agents = new Map<string, http.Agent>();

  constructor(options: WebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.responseBodyLimit = options.responseBodyLimit ?? 4096;
    this.maxSocketsPerOrigin = options.maxSocketsPerOrigin ?? 16;
    this.maxResponseBytesRead = options.maxResponseBytesRead ?? 64 * 1024;
    this.maxOrigins = options.maxOrigins ?? 256;
  }

  /** Sends one delivery; never rejects, every failure is a response with its `error`. */
  send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return Promise.resolve(failed(started, 'invalid_request: not an http(s) URL'));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // net connects to an IP literal without a lookup, so it is checked here.
    const refusal = isIP(host) ? addressRefusal(host, request.mode) : undefined;
    if (refusal !== undefined) return Promise.resolve(failed(started, `address_refused: ${refusal}`));
    return new Promise((resolve) => this.exchange(url, request, started, resolve));
  }

  /** Destroys every pooled socket, idle or in use. */
  async close(): Promise<void> {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private exchange(url: URL, request: WebhookRequest, started: number, resolve: (response: WebhookResponse) => void): void {
    const payload = Buffer.from(request.body, 'utf8');
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let readBytes = 0;
    let status: number | null = null;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (error: string | null, whole = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const body = textOf(Buffer.concat(kept), whole && readBytes === keptBytes);
      resolve({ status, body, durationMs: performance.now() - started, error: status === null ? error : null });
    };

    const onResponse = (response: http.IncomingMessage) => {
      status = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        readBytes += chunk.length;
        if (keptBytes < this.responseBodyLimit) {
          const part = chunk.subarray(0, this.responseBodyLimit - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (readBytes >= this.maxResponseBytesRead) {
          settle(null);
          response.destroy();
        }
      });
      response.on('end', () => settle(null, true));
      response.on('error', () => settle(null));
      response.on('close', () => settle(null));
    };

    let outgoing: http.ClientRequest;
    try {
      outgoing = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          agent: this.agentFor(url, request.mode),
          lookup: guardedLookup(request.mode),
          headers: { ...request.headers, 'Content-Length': String(payload.length), 'User-Agent': USER_AGENT },
        },
        onResponse,
      );
    } catch (error) {
      // Headers that cannot be sent (a newline in a value, say) throw here, before any connection.
      const { code, message } = error as NodeJS.ErrnoException;
      return settle(`invalid_request: ${code ?? message}`);
    }
    timer = setTimeout(() => {
      settle('timeout');
      outgoing.destroy();
    }, this.timeoutMs);
    outgoing.on('error', (error) => settle(failureOf(error)));
    outgoing.end(payload);
  }

  private agentFor(url: URL, mode: DeliveryMode): http.Agent {
    const key = `${mode} ${url.origin}`;
    let agent = this.agents.get(key);
    if (agent) {
      this.agents.delete(key);
    } else {
      const options = { keepAlive: true, maxSockets: this.maxSocketsPerOrigin, timeout: IDLE_SOCKET_MS };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    }
    this.agents.set(key, agent);
    for (const [oldest, old] of this.agents) {
      if (this.agents.size <= this.maxOrigins) break;
      this.agents.delete(oldest);
      // Its requests in flight finish; only its idle sockets go now.
      for (const sockets of Object.values(old.freeSockets)) sockets?.forEach((socket) => socket.destroy());
    }
    return agent;
  }
}
