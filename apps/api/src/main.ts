import { readConfig, type TallyConfig } from '@tally/cells';
import { freePort } from './free-port';

/**
 * `npm start`: the configuration, checked before the app's modules load so that a bad one stops
 * the start at once, then the API (serve-api.ts).
 */
async function main(): Promise<void> {
  const config = await withPortChosen(configOrExit());
  const { serveApi } = await import('./serve-api');
  await serveApi(config);
}

/** A configuration that cannot work stops the start with one line naming the variable. */
function configOrExit(): TallyConfig {
  try {
    return readConfig();
  } catch (error) {
    process.stderr.write(`Tally cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/**
 * PORT=0 asks for a free port: it is chosen before the app starts, so that the public URL's
 * default, which the worker threads get too, names the port the API then listens on.
 */
async function withPortChosen(config: TallyConfig): Promise<TallyConfig> {
  return config.port === 0 ? readConfig({ ...process.env, PORT: String(await freePort()) }) : config;
}

void main();
