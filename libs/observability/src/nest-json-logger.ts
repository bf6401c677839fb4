import type { LoggerService } from '@nestjs/common';
import type { Level } from 'pino';
import type { JsonLog } from './json-log';

const STACK = /\n\s+at /;

/** Nest's start-up narration (every module loaded, every route mapped): debug, so a start shows what matters. */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);
const isStack = (value: unknown): value is string => typeof value === 'string' && STACK.test(value);

/**
 * Nest's own lines and every `new Logger(context)` as JSON through pino. Nest hands the context
 * as the last string argument and an error's stack before it. A message may be an object of
 * fields with a `message`, so a line can carry its trace id: `logger.error({ message, trace_id }, stack)`.
 */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly out: JsonLog) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: readonly unknown[]): void {
    const last = params[params.length - 1];
    const context = typeof last === 'string' && !isStack(last) ? last : undefined;
    const stack = params.find(isStack) ?? (message instanceof Error ? message.stack : undefined);
    const { message: text = '', ...fields } = isFields(message) ? message : { message: message instanceof Error ? message.message : String(message) };
    this.out[level]({ ...(context !== undefined && { context }), ...fields, ...(stack !== undefined && { stack }) }, String(text));
  }
}

const isFields = (message: unknown): message is Record<string, unknown> =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && !(message instanceof Error);
