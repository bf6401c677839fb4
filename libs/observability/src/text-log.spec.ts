import { formatRecord, textLines } from './text-log';

describe('text log lines', () => {
  it('formats a record as time, level, context, message and the other fields', () => {
    const line = formatRecord({ time: '2026-05-01T10:00:01.234Z', level: 'info', pid: 1, hostname: 'h', context: 'http', msg: 'request', method: 'GET', status: 200, labels: { a: 1 } });
    expect(line).toBe('10:00:01.234 INFO  [http] request  method=GET status=200 labels={"a":1}\n');
  });

  it('puts a stack on the lines after its record', () => {
    expect(formatRecord({ time: '2026-05-01T10:00:01.234Z', level: 'error', msg: 'failed', stack: 'Error: x\n    at y' })).toBe('10:00:01.234 ERROR failed\nError: x\n    at y\n');
  });

  it('writes each JSON line it is given as a text line', () => {
    const written: string[] = [];
    textLines({ write: (text) => written.push(text) }).write('{"time":"2026-05-01T10:00:01.234Z","level":"warn","msg":"slow"}\n');
    expect(written).toEqual(['10:00:01.234 WARN  slow\n']);
  });
});
