import dns from 'node:dns';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { WebhookSender, type WebhookRequest, type WebhookSenderOptions } from './webhook-sender';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on this machine that records what reaches it and answers with `respond`. */
interface Receiver {
  url: (host?: string) => string;
  requests: Received[];
  sockets: net.Socket[];
}

const servers: http.Server[] = [];
const senders: WebhookSender[] = [];

async function receiver(respond: (response: http.ServerResponse) => void, host = '127.0.0.1'): Promise<Receiver> {
  const requests: Received[] = [];
  const sockets: net.Socket[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(response);
    });
  });
  server.on('connection', (socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { url: (name = host) => `http://${name}:${port}/hooks?attempt=1`, requests, sockets };
}

function sender(options?: WebhookSenderOptions): WebhookSender {
  const created = new WebhookSender(options);
  senders.push(created);
  return created;
}

function post(url: string, mode: WebhookRequest['mode'] = 'sandbox', body = '{"type":"invoice.paid"}'): WebhookRequest {
  return { url, headers: { 'Content-Type': 'application/json' }, body, mode };
}

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(senders.splice(0).map((each) => each.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('WebhookSender', () => {
  it('posts the headers and body exactly as given, with its length and user agent', async () => {
    const hook = await receiver((response) => response.end('ok'));
    const body = '{"customer":"Zoë Šimić","amount":"12.50 €"}';
    const headers = { 'Content-Type': 'application/json', 'Tally-Signature': 't=1700000000,v1=5257a869e7ec', 'Tally-Event-Id': 'evt_1' };

    const answer = await sender().send({ url: hook.url(), headers, body, mode: 'sandbox' });

    expect(answer).toEqual({ status: 200, body: 'ok', durationMs: expect.any(Number), error: null });
    expect(hook.requests).toHaveLength(1);
    const [received] = hook.requests;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/hooks?attempt=1');
    expect(received.body).toBe(body);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'tally-signature': 't=1700000000,v1=5257a869e7ec',
      'tally-event-id': 'evt_1',
      'user-agent': 'Tally-Webhooks/1.0',
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('keeps the response body up to the limit, never cutting a character in two', async () => {
    // 9 bytes of 'a' and a 3-byte euro sign: a limit of 10 would cut the sign after its first byte.
    const cut = await receiver((response) => response.end('aaaaaaaaa€ and more'));
    const exact = await receiver((response) => response.end('aaaaaaa€'));
    const sending = sender({ responseBodyLimit: 10 });

    expect(await sending.send(post(cut.url()))).toMatchObject({ status: 200, body: 'aaaaaaaaa', error: null });
    expect(await sending.send(post(exact.url()))).toMatchObject({ status: 200, body: 'aaaaaaa€', error: null });
  });

  it('answers a non-2xx status as it came', async () => {
    const hook = await receiver((response) => {
      response.statusCode = 503;
      response.end('down for maintenance');
    });

    expect(await sender().send(post(hook.url()))).toMatchObject({ status: 503, body: 'down for maintenance', error: null });
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver((response) => response.end('moved here'));
    const hook = await receiver((response) => {
      response.writeHead(307, { Location: elsewhere.url() });
      response.end();
    });

    expect(await sender().send(post(hook.url()))).toMatchObject({ status: 307, body: '', error: null });
    expect(hook.requests).toHaveLength(1);
    expect(elsewhere.sockets).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer within the timeout, and hangs up', async () => {
    let hungUp!: Promise<unknown>;
    const hook = await receiver((response) => {
      hungUp = new Promise((resolve) => response.on('close', resolve));
    });

    const answer = await sender({ timeoutMs: 150 }).send(post(hook.url()));

    expect(answer).toMatchObject({ status: null, body: '', error: 'timeout' });
    // Node's timers may fire a millisecond before the monotonic clock says so.
    expect(answer.durationMs).toBeGreaterThanOrEqual(145);
    expect(answer.durationMs).toBeLessThan(1_000);
    await hungUp;
    expect(hook.requests).toHaveLength(1);
  });

  it('stops reading a body that never ends, and hangs up', async () => {
    let hungUp!: Promise<unknown>;
    const hook = await receiver((response) => {
      hungUp = new Promise((resolve) => response.on('close', resolve));
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });

    const answer = await sender({ timeoutMs: 5_000, responseBodyLimit: 100, maxResponseBytesRead: 64 * 1024 }).send(post(hook.url()));

    expect(answer).toMatchObject({ status: 200, body: 'x'.repeat(100), error: null });
    expect(answer.durationMs).toBeLessThan(2_000);
    await hungUp;
  });

  it('reports a refused connection by its code', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    expect(await sender().send(post(`http://127.0.0.1:${port}/hooks`))).toMatchObject({ status: null, body: '', error: 'connection_error: ECONNREFUSED' });
  });

  it('refuses a loopback address in live mode without connecting', async () => {
    const hook = await receiver((response) => response.end('ok'));

    expect(await sender().send(post(hook.url(), 'live'))).toMatchObject({ status: null, error: 'address_refused: address 127.0.0.1 is loopback' });
    expect(await sender().send(post('http://[::ffff:7f00:1]:9/hooks', 'live'))).toMatchObject({ status: null, error: 'address_refused: address ::ffff:7f00:1 is loopback' });
    expect(hook.sockets).toHaveLength(0);
  });

  describe('a host name', () => {
    let localhost: string;
    beforeAll(async () => {
      localhost = (await dns.promises.lookup('localhost')).address;
    });

    it.each([true, false])('is resolved and checked (net autoSelectFamily %s)', async (autoSelectFamily) => {
      const before = net.getDefaultAutoSelectFamily();
      net.setDefaultAutoSelectFamily(autoSelectFamily);
      try {
        const hook = await receiver((response) => response.end('ok'), localhost);
        const lookups = jest.spyOn(dns, 'lookup');

        expect(await sender().send(post(hook.url('localhost'), 'live'))).toMatchObject({ status: null, error: expect.stringMatching(/^address_refused: address \S+ is loopback$/) });
        expect(hook.sockets).toHaveLength(0);
        expect(await sender().send(post(hook.url('localhost'), 'sandbox'))).toMatchObject({ status: 200, body: 'ok', error: null });
        expect(hook.requests).toHaveLength(1);
        expect(lookups).toHaveBeenCalledWith('localhost', expect.objectContaining({ all: true }), expect.any(Function));
      } finally {
        net.setDefaultAutoSelectFamily(before);
      }
    });

    it('connects to the address it checked, and is refused when any of its addresses is', async () => {
      const hook = await receiver((response) => response.end('ok'));
      const answers: Record<string, dns.LookupAddress[]> = { 'receiver.test': [{ address: '127.0.0.1', family: 4 }] };
      const lookup = jest.spyOn(dns, 'lookup').mockImplementation(((hostname: string, _options: unknown, callback: (error: null, addresses: dns.LookupAddress[]) => void) => {
        setImmediate(() => callback(null, answers[hostname]));
      }) as unknown as typeof dns.lookup);
      const sending = sender();

      expect(await sending.send(post(hook.url('receiver.test')))).toMatchObject({ status: 200, error: null });
      expect(hook.requests[0].headers.host).toBe(hook.url('receiver.test').split('/')[2]);

      answers['elsewhere.test'] = [{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.7', family: 4 }];
      expect(await sending.send(post(hook.url('elsewhere.test')))).toMatchObject({ status: null, error: 'address_refused: address 10.0.0.7 is private' });
      expect(hook.requests).toHaveLength(1);
      expect(lookup).toHaveBeenCalledTimes(2);
    });

    it('never lets a live delivery reuse a socket a sandbox one opened', async () => {
      const hook = await receiver((response) => response.end('ok'), localhost);
      const sending = sender();

      expect(await sending.send(post(hook.url('localhost'), 'sandbox'))).toMatchObject({ status: 200 });
      expect(await sending.send(post(hook.url('localhost'), 'live'))).toMatchObject({ status: null, error: expect.stringMatching(/^address_refused: /) });
      expect(hook.requests).toHaveLength(1);
    });
  });

  it('keeps a connection alive between deliveries to one receiver, and closes it on close', async () => {
    const hook = await receiver((response) => response.end('ok'));
    const sending = sender();

    await sending.send(post(hook.url()));
    await sending.send(post(hook.url()));
    expect(hook.requests).toHaveLength(2);
    expect(hook.sockets).toHaveLength(1);

    const closed = new Promise((resolve) => hook.sockets[0].on('close', resolve));
    await sending.close();
    await closed;
  });

  it('lets the idle sockets of the least recently used receiver go beyond maxOrigins', async () => {
    const first = await receiver((response) => response.end('ok'));
    const second = await receiver((response) => response.end('ok'));
    const sending = sender({ maxOrigins: 1 });

    await sending.send(post(first.url()));
    const closed = new Promise((resolve) => first.sockets[0].on('close', resolve));
    await sending.send(post(second.url()));
    await closed;
    expect(second.sockets[0].destroyed).toBe(false);
  });

  it('answers a request it cannot send without throwing', async () => {
    const hook = await receiver((response) => response.end('ok'));
    const sending = sender();

    expect(await sending.send(post('ftp://example.com/hooks'))).toMatchObject({ status: null, error: 'invalid_request: not an http(s) URL' });
    expect(await sending.send(post('not a url'))).toMatchObject({ status: null, error: 'invalid_request: not an http(s) URL' });
    const split = { ...post(hook.url()), headers: { 'X-Note': 'one\r\nX-Injected: two' } };
    expect(await sending.send(split)).toMatchObject({ status: null, error: 'invalid_request: ERR_INVALID_CHAR' });
    expect(hook.sockets).toHaveLength(0);
  });
});
