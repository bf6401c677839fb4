import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/tally-config';

export type JsonLog = Logger;

/** One JSON object per line, on stdout unless a destination is given, with an ISO time and the level by name. */
export function createJsonLog(level: LogLevel, destination?: DestinationStream): JsonLog {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);
}
