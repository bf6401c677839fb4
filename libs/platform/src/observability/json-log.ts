import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from '../config/tally-config';
import { textLines } from './text-log';

export type JsonLog = Logger;

/** One JSON object per line, on stdout unless a destination is given, with an ISO time and the level by name. */
export function createJsonLog(level: LogLevel, destination?: DestinationStream): JsonLog {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);
}

/** The process's log in the configured format; text lines are the same records, formatted for reading. */
export function createLog({ logLevel, logFormat }: { logLevel: LogLevel; logFormat: LogFormat }): JsonLog {
  return createJsonLog(logLevel, logFormat === 'text' ? textLines(process.stdout) : undefined);
}
