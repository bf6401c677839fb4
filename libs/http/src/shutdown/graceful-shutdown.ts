import type { Server } from 'node:http';

/** What closing needs of the app: its HTTP server and its own close (the shutdown hooks, then the stores). */
export interface ClosableHttpApp {
  getHttpServer(): Server;
  close(): Promise<void>;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Makes the app's close stop taking connections and let the requests in flight finish (for at most
 * `boundMs`) before its shutdown hooks close the stores under them, and closes it so on a signal:
 * a request that was admitted is answered from open stores, never cut off by a SIGTERM. (Nest's own
 * signal hooks run the shutdown hooks first and stop the server last.)
 */
export function shutDownGracefully(app: ClosableHttpApp, boundMs = 10_000): void {
  const server = app.getHttpServer();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  server.on('request', (_request, response) => {
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    });
  });

  const onSignal = (signal: NodeJS.Signals): void => {
    void app.close().finally(() => process.kill(process.pid, signal));
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);

  const closeApp = app.close.bind(app);
  let closed: Promise<void> | undefined;
  app.close = () => {
    closed ??= (async () => {
      for (const signal of SIGNALS) process.removeListener(signal, onSignal);
      if (server.listening) server.close();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, boundMs).unref();
        });
      }
      server.closeIdleConnections();
      await closeApp();
    })();
    return closed;
  };
}
