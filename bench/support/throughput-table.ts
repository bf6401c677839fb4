/** One measured case of an events-per-second benchmark. */
export interface ThroughputResult {
  name: string;
  events: number;
  ms: number;
  /** Events per second the case must reach, shown as ✓ or ✗. */
  target?: number;
  /** The case's rate as a share of a baseline's measured in the same run, and the share it must reach. */
  share?: { of: number; target?: number };
}

export const rateOf = (r: Pick<ThroughputResult, 'events' | 'ms'>): number => (r.events / r.ms) * 1000;

/** The run with the median rate, for a case measured in several interleaved rounds. */
export function medianResult(runs: readonly ThroughputResult[]): ThroughputResult {
  if (runs.length === 0) throw new Error('no runs to take the median of');
  return [...runs].sort((a, b) => rateOf(a) - rateOf(b))[Math.floor((runs.length - 1) / 2)];
}

/** The median of the shares `rate(case) / rate(baseline)` of rounds measured side by side. */
export function medianShare(cases: readonly ThroughputResult[], baselines: readonly ThroughputResult[]): number {
  const shares = cases.map((c, i) => rateOf(c) / rateOf(baselines[i])).sort((a, b) => a - b);
  return shares[Math.floor((shares.length - 1) / 2)];
}

/** The markdown table BENCHMARKS.md shows for events-per-second benchmarks. */
export function throughputTable(results: readonly ThroughputResult[], shareHeading = '% of baseline'): string {
  const rate = (r: ThroughputResult): number => Math.round(rateOf(r));
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  const goal = (r: ThroughputResult): string => {
    if (r.share?.target !== undefined) return `≥ ${percent(r.share.target)} ${r.share.of >= r.share.target ? '✓' : '✗'}`;
    if (r.target !== undefined) return `≥ ${r.target.toLocaleString('en-US')} ${rate(r) >= r.target ? '✓' : '✗'}`;
    return '';
  };
  // The share column only where some case has a baseline.
  const shares = results.some((r) => r.share);
  const cells = (r: ThroughputResult) => [r.name, r.events.toLocaleString('en-US'), r.ms.toFixed(0), rate(r).toLocaleString('en-US'), ...(shares ? [r.share ? percent(r.share.of) : ''] : []), goal(r)];
  const lines = [
    `| Case | Events | Time (ms) | Events/s | ${shares ? `${shareHeading} | ` : ''}Target |`,
    `|---|---:|---:|---:|${shares ? '---:|' : ''}---|`,
    ...results.map((r) => `| ${cells(r).join(' | ')} |`),
  ];
  return lines.join('\n');
}
