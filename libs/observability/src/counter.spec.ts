import { Counter } from './counter';

describe('a counter', () => {
  it('counts per label set, whatever order the labels come in, and exposes them in declared order', () => {
    const counter = new Counter('requests_total', 'Requests', ['method', 'status']);
    counter.inc({ method: 'GET', status: '200' });
    counter.inc({ status: '200', method: 'GET' }, 2);
    counter.inc({ method: 'POST', status: '200' });

    expect(counter.collect()).toEqual({
      name: 'requests_total',
      help: 'Requests',
      type: 'counter',
      samples: [
        { name: 'requests_total', labels: { method: 'GET', status: '200' }, value: 3 },
        { name: 'requests_total', labels: { method: 'POST', status: '200' }, value: 1 },
      ],
    });
    expect(Object.keys(counter.collect().samples[0].labels)).toEqual(['method', 'status']);
  });
});
