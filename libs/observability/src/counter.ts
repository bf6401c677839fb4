import type { MetricFamily } from './prometheus-text';
import { SeriesByLabels, type Labels } from './series-by-labels';

/** A monotonically increasing count per label set. */
export class Counter<L extends string> {
  private readonly series: SeriesByLabels<L, { value: number }>;

  constructor(
    readonly name: string,
    private readonly help: string,
    labelNames: readonly L[],
  ) {
    this.series = new SeriesByLabels(labelNames, () => ({ value: 0 }));
  }

  inc(labels: Labels<L>, by = 1): void {
    this.series.get(labels).value += by;
  }

  collect(): MetricFamily {
    return {
      name: this.name,
      help: this.help,
      type: 'counter',
      samples: this.series.entries().map(({ labels, value }) => ({ name: this.name, labels, value: value.value })),
    };
  }
}
