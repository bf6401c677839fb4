import { renderPrometheusText, renderValue } from './prometheus-text';

describe('the Prometheus text format', () => {
  it('writes HELP and TYPE before the samples of each family, one sample a line, ending with a newline', () => {
    const text = renderPrometheusText([
      { name: 'jobs_total', help: 'Jobs done', type: 'counter', samples: [{ name: 'jobs_total', labels: { queue: 'a', kind: 'b' }, value: 3 }] },
      { name: 'up', help: 'Whether it runs', type: 'gauge', samples: [{ name: 'up', labels: {}, value: 1 }] },
    ]);
    expect(text).toBe(
      ['# HELP jobs_total Jobs done', '# TYPE jobs_total counter', 'jobs_total{queue="a",kind="b"} 3', '# HELP up Whether it runs', '# TYPE up gauge', 'up 1', ''].join('\n'),
    );
  });

  it('escapes backslashes, double quotes and newlines in label values, and backslashes and newlines in help', () => {
    const text = renderPrometheusText([
      { name: 'x', help: 'a \\ b\nc "d"', type: 'gauge', samples: [{ name: 'x', labels: { path: 'C:\\dir\n"quoted"' }, value: 0 }] },
    ]);
    expect(text).toBe('# HELP x a \\\\ b\\nc "d"\n# TYPE x gauge\nx{path="C:\\\\dir\\n\\"quoted\\""} 0\n');
  });

  it('keeps a family without samples', () => {
    expect(renderPrometheusText([{ name: 'lag', help: 'Lag', type: 'gauge', samples: [] }])).toBe('# HELP lag Lag\n# TYPE lag gauge\n');
  });

  it('spells infinities and NaN the Prometheus way and keeps fractions', () => {
    expect([Infinity, -Infinity, NaN, 0.25, 1e-7, 42].map(renderValue)).toEqual(['+Inf', '-Inf', 'NaN', '0.25', '1e-7', '42']);
  });
});
