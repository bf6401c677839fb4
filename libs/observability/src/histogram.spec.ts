import { Histogram } from './histogram';
import type { Sample } from './prometheus-text';

const valuesOf = (samples: readonly Sample[]): Record<string, number> =>
  Object.fromEntries(samples.map((s) => [`${s.name}${JSON.stringify(s.labels)}`, s.value]));

describe('a histogram', () => {
  it('counts cumulatively per bucket, a value equal to a bound inside that bucket, with sum and count', () => {
    const histogram = new Histogram('latency_seconds', 'Latency', ['route'], [0.5, 0.1, 1]);
    for (const value of [0.05, 0.1, 0.3, 2]) histogram.observe({ route: '/a' }, value);

    const family = histogram.collect();
    expect(family).toMatchObject({ name: 'latency_seconds', help: 'Latency', type: 'histogram' });
    expect(valuesOf(family.samples)).toEqual({
      'latency_seconds_bucket{"route":"/a","le":"0.1"}': 2,
      'latency_seconds_bucket{"route":"/a","le":"0.5"}': 3,
      'latency_seconds_bucket{"route":"/a","le":"1"}': 3,
      'latency_seconds_bucket{"route":"/a","le":"+Inf"}': 4,
      'latency_seconds_sum{"route":"/a"}': 2.45,
      'latency_seconds_count{"route":"/a"}': 4,
    });
  });

  it('keeps one distribution per label set', () => {
    const histogram = new Histogram('h', 'H', ['region'], [1]);
    histogram.observe({ region: 'eu' }, 0.5);
    histogram.observe({ region: 'us' }, 3);
    histogram.observe({ region: 'eu' }, 0.7);

    const counts = histogram.collect().samples.filter((s) => s.name === 'h_count');
    expect(counts).toEqual([
      { name: 'h_count', labels: { region: 'eu' }, value: 2 },
      { name: 'h_count', labels: { region: 'us' }, value: 1 },
    ]);
  });
});
