import type { DestinationStream } from 'pino';

/** Fields every record has, shown in the line's fixed part or not at all. */
const FIXED = new Set(['time', 'level', 'msg', 'context', 'pid', 'hostname', 'stack']);

/** A pino destination that writes each JSON record as one line a person can read: `10:00:01.234 INFO  [context] message  key=value`. */
export function textLines(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => out.write(formatRecord(JSON.parse(line) as Record<string, unknown>)) };
}

export function formatRecord(record: Record<string, unknown>): string {
  const clock = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = String(record.level ?? '').toUpperCase().padEnd(5);
  const context = typeof record.context === 'string' ? `[${record.context}] ` : '';
  const fields = Object.entries(record)
    .filter(([key]) => !FIXED.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const stack = typeof record.stack === 'string' ? `\n${record.stack}` : '';
  return `${clock} ${level} ${context}${String(record.msg ?? '')}${fields ? `  ${fields}` : ''}${stack}\n`;
}
