import type { CellRegistry } from '@tally/cells';
import type { MetricFamily, Sample } from '@tally/observability';
import { PARKED_COMMANDS, type ParkedCommandDoc } from './parked-commands.projection';

const NAME = 'parked_commands';
const PAGE = 500;

/**
 * `parked_commands{process,region}`: the commands parked now and not retried since, counted in
 * the parked commands read model at each scrape. Read from the store, it is the same whichever
 * process or thread runs the dispatcher (whose own counters stay in that process) and across
 * restarts, so an alert on it holds until an operator retries. A process with none has no sample.
 */
export class ParkedCommandsGauge {
  constructor(private readonly cells: CellRegistry) {}

  async collect(): Promise<MetricFamily> {
    const samples: Sample[] = [];
    for (const cell of this.cells.all()) {
      const byProcess = new Map<string, number>();
      let after: { value: string; id: string } | undefined;
      do {
        const page = await cell.readModels.find<ParkedCommandDoc>(PARKED_COMMANDS, { limit: PAGE, ...(after && { after }) });
        for (const parked of page.items) byProcess.set(parked.process, (byProcess.get(parked.process) ?? 0) + 1);
        const last = page.items.at(-1);
        after = page.hasMore && last ? { value: last.id, id: last.id } : undefined;
      } while (after);
      for (const [process, value] of byProcess) samples.push({ name: NAME, labels: { process, region: cell.region }, value });
    }
    return { name: NAME, help: 'Commands of process managers parked now (failed every attempt, or refused where a refusal must not be dropped) and not retried since', type: 'gauge', samples };
  }
}
