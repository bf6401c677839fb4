export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface Sample {
  /** The family name, or the family name with a histogram suffix (`_bucket`, `_sum`, `_count`). */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The Prometheus text exposition format, version 0.0.4. */
export function renderPrometheusText(families: readonly MetricFamily[]): string {
  return families
    .map((family) =>
      [
        `# HELP ${family.name} ${escapeHelp(family.help)}`,
        `# TYPE ${family.name} ${family.type}`,
        ...family.samples.map((sample) => `${sample.name}${renderLabels(sample.labels)} ${renderValue(sample.value)}`),
      ].join('\n'),
    )
    .map((block) => `${block}\n`)
    .join('');
}

function renderLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

export function renderValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

const escapeHelp = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

const escapeLabelValue = (text: string): string => escapeHelp(text).replace(/"/g, '\\"');
