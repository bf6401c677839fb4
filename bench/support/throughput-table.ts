/** One measured case of an events-per-second benchmark. */
export interface ThroughputResult {
  name: string;
  events: number;
  ms: number;
  /** Events per second the case must reach, shown as ✓ or ✗. */
  target?: number;
}

/** The markdown table BENCHMARKS.md shows for events-per-second benchmarks. */
export function throughputTable(results: readonly ThroughputResult[]): string {
  const rate = (r: ThroughputResult): number => Math.round((r.events / r.ms) * 1000);
  const lines = [
    '| Case | Events | Time (ms) | Events/s | Target |',
    '|---|---:|---:|---:|---|',
    ...results.map((r) => {
      const target = r.target === undefined ? '' : `≥ ${r.target.toLocaleString('en-US')} ${rate(r) >= r.target ? '✓' : '✗'}`;
      return `| ${r.name} | ${r.events.toLocaleString('en-US')} | ${r.ms.toFixed(0)} | ${rate(r).toLocaleString('en-US')} | ${target} |`;
    }),
  ];
  return lines.join('\n');
}
