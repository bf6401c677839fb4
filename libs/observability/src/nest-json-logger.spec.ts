import { Logger } from '@nestjs/common';
import { createJsonLog } from './json-log';
import { NestJsonLogger } from './nest-json-logger';

describe('Nest logging as JSON lines', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = new NestJsonLogger(createJsonLog('debug', { write: (line: string) => lines.push(JSON.parse(line)) }));

  beforeEach(() => {
    lines.length = 0;
    Logger.overrideLogger(logger);
  });

  afterAll(() => Logger.overrideLogger(false));

  it('writes a Logger instance line with its level by name, its context and an ISO time', () => {
    new Logger('worker').log('started');
    expect(lines).toEqual([{ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), pid: process.pid, hostname: expect.any(String), context: 'worker', msg: 'started' }]);
  });

  it('writes Nest’s start-up narration at debug, so a start shows only what matters', () => {
    new Logger('RouterExplorer').log('Mapped {/v1/customers, POST} route');
    new Logger('InstanceLoader').log('AppModule dependencies initialized');
    expect(lines.map((line) => line.level)).toEqual(['debug', 'debug']);
  });

  it('keeps the stack of an error apart from the context, with or without a stack', () => {
    const error = new Error('boom');
    new Logger('worker').error('runner failed', error.stack);
    new Logger('worker').error('runner failed', undefined);
    expect(lines[0]).toMatchObject({ level: 'error', context: 'worker', msg: 'runner failed', stack: error.stack });
    expect(lines[1]).toMatchObject({ level: 'error', context: 'worker', msg: 'runner failed' });
    expect(lines[1]).not.toHaveProperty('stack');
  });

  it('spreads a message object into fields, its message becoming the line message', () => {
    new Logger('http').error({ message: 'POST /v1/customers failed', trace_id: 'req_1', tenant_id: 'ten_1' }, new Error('x').stack);
    expect(lines[0]).toMatchObject({ level: 'error', context: 'http', msg: 'POST /v1/customers failed', trace_id: 'req_1', tenant_id: 'ten_1', stack: expect.stringContaining('Error: x') });
  });

  it('maps Nest levels to pino levels and drops what the level filters out', () => {
    const quiet = new NestJsonLogger(createJsonLog('warn', { write: (line: string) => lines.push(JSON.parse(line)) }));
    quiet.verbose('noise');
    quiet.debug('noise');
    quiet.log('noise');
    quiet.warn('careful');
    quiet.fatal('gone');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'careful'],
      ['fatal', 'gone'],
    ]);
    logger.verbose('detail');
    expect(lines).toHaveLength(2);
  });
});
