import 'reflect-metadata';
import { SystemClock } from '@tally/kernel';
import { bindingsFor, rebuildProjections, type CatchUpProgress } from '@tally/runtime';
import { openConfiguredCells, readConfig } from '@tally/cells';
import { CONTEXTS } from '../../../contexts';

/** `npm run projections:rebuild`: every read model of every cell, rebuilt from the log. Stop the service first. */
async function main(): Promise<void> {
  const config = readConfig();
  const cells = await openConfiguredCells(config, new SystemClock(), CONTEXTS);
  try {
    const bindings = cells.all().flatMap((cell) => bindingsFor(cell, cells, CONTEXTS.projections));
    const handled = await rebuildProjections(bindings, drawProgress);
    process.stderr.write(`\nRebuilt ${bindings.length} read models from ${handled} events.\n`);
  } finally {
    await cells.close();
  }
}

const WIDTH = 30;

function drawProgress({ checkpoint, events, position, head }: CatchUpProgress): void {
  const done = head === 0n ? 1 : Number((position * 1000n) / head) / 1000;
  const filled = Math.round(Math.min(done, 1) * WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
  process.stderr.write(`\r${checkpoint.padEnd(20)} ${bar} ${(done * 100).toFixed(0).padStart(3)}%  ${events} events`);
}

void main();
