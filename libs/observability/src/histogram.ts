import { renderValue, type MetricFamily, type Sample } from './prometheus-text';
import { SeriesByLabels, type Labels } from './series-by-labels';

interface Distribution {
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: number[];
  sum: number;
}

/** Observations counted into fixed buckets per label set, exposed as cumulative `_bucket{le}`, `_sum` and `_count`. */
export class Histogram<L extends string> {
  private readonly series: SeriesByLabels<L, Distribution>;
  private readonly bounds: readonly number[];

  constructor(
    readonly name: string,
    private readonly help: string,
    labelNames: readonly L[],
    bounds: readonly number[],
  ) {
    this.bounds = [...bounds].sort((a, b) => a - b);
    this.series = new SeriesByLabels(labelNames, () => ({ counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0 }));
  }

  observe(labels: Labels<L>, value: number): void {
    const distribution = this.series.get(labels);
    const bucket = this.bounds.findIndex((bound) => value <= bound);
    distribution.counts[bucket < 0 ? this.bounds.length : bucket] += 1;
    distribution.sum += value;
  }

  collect(): MetricFamily {
    return {
      name: this.name,
      help: this.help,
      type: 'histogram',
      samples: this.series.entries().flatMap(({ labels, value }) => this.samplesOf(labels, value)),
    };
  }

  private samplesOf(labels: Labels<L>, distribution: Distribution): Sample[] {
    let cumulative = 0;
    const buckets = [...this.bounds, Infinity].map((bound, i) => {
      cumulative += distribution.counts[i];
      return { name: `${this.name}_bucket`, labels: { ...labels, le: renderValue(bound) }, value: cumulative };
    });
    return [...buckets, { name: `${this.name}_sum`, labels, value: distribution.sum }, { name: `${this.name}_count`, labels, value: cumulative }];
  }
}
