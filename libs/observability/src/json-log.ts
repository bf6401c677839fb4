import pino, { type DestinationStream, type Logger } from 'pino';
import { textLines } from './text-log';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `json`: one JSON object a line, for log pipelines; `text`: one readable line a record, for a person at a terminal. */
export type LogFormat = 'json' | 'text';

export type JsonLog = Logger;

/** One JSON object per line, on stdout unless a destination is given, with an ISO time and the level by name. */
export function createJsonLog(level: LogLevel, destination?: DestinationStream): JsonLog {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);
}

/** The process's log in the configured format; text lines are the same records, formatted for reading. */
export function createLog({ logLevel, logFormat }: { logLevel: LogLevel; logFormat: LogFormat }): JsonLog {
  return createJsonLog(logLevel, logFormat === 'text' ? textLines(process.stdout) : undefined);
}
