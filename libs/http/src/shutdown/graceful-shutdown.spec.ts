import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shutDownGracefully } from './graceful-shutdown';

describe('shutDownGracefully', () => {
  let server: Server;
  let finishSlow: () => void;
  let steps: string[];

  beforeEach(async () => {
    steps = [];
    server = createServer((req, res) => {
      if (req.url === '/slow') finishSlow = () => res.end('slow done', () => void steps.push('answered'));
      else res.end('fast');
    });
    await new Promise<void>((resolve) => server.listen(0, resolve));
  });

  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  const port = () => (server.address() as AddressInfo).port;
  const get = (path: string, targetPort = port()) =>
    new Promise<string>((resolve, reject) => {
      request({ port: targetPort, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });

  function appOver(boundMs?: number) {
    const app = { getHttpServer: () => server, close: async () => void steps.push('stores closed') };
    shutDownGracefully(app, boundMs);
    return app;
  }

  it('answers the request in flight before the stores close, and takes no new connection meanwhile', async () => {
    const app = appOver();
    const slow = get('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const listeningOn = port();

    const closing = app.close();
    await expect(get('/fast', listeningOn)).rejects.toThrow(/ECONNREFUSED/);
    expect(steps).toEqual([]);

    finishSlow();
    await expect(slow).resolves.toBe('slow done');
    await closing;
    expect(steps).toEqual(['answered', 'stores closed']);
  });

  it('closes at once when nothing is in flight', async () => {
    const app = appOver();
    await expect(get('/fast')).resolves.toBe('fast');
    await app.close();
    expect(steps).toEqual(['stores closed']);
    expect(server.listening).toBe(false);
  });

  it('waits no longer than its bound for a request that never ends', async () => {
    const app = appOver(100);
    void get('/slow').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = process.hrtime.bigint();
    await app.close();
    expect(steps).toEqual(['stores closed']);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });

  it('closes once however often it is asked, and leaves no signal listener behind', async () => {
    const before = process.listenerCount('SIGTERM');
    const app = appOver();
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await Promise.all([app.close(), app.close()]);
    expect(steps).toEqual(['stores closed']);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
