import { createServer } from 'node:http';
import { Body, Controller, Get, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { listenOnLoopback, type RunningServer } from './listen';

/** What both baselines answer: a small JSON body, for every route. */
const ANSWER = { id: 'cus_01JBENCHBASELINE0000000000', object: 'customer', email: 'ada@example.com' };
const ANSWER_TEXT = JSON.stringify(ANSWER);

/** node:http alone: reads the request body, answers the small JSON body. */
export function startBareHttp(): Promise<RunningServer> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER_TEXT) });
      response.end(ANSWER_TEXT);
    });
  });
  return listenOnLoopback(server);
}

/** Express 5 with its JSON body parser and handlers that do nothing but answer JSON. */
export function startBareExpress(): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json());
  app.post('/v1/customers', (_request, response) => {
    response.json(ANSWER);
  });
  app.get('/v1/customers/:id', (_request, response) => {
    response.json(ANSWER);
  });
  return listenOnLoopback(createServer(app));
}

@Controller('v1/customers')
class NoopCustomersController {
  @Post()
  @HttpCode(200)
  create(@Body() _body: unknown) {
    return ANSWER;
  }

  @Get(':id')
  retrieve(@Param('id') _id: string) {
    return ANSWER;
  }
}

@Module({ controllers: [NoopCustomersController] })
class NoopModule {}

/** NestJS 11 on Express with a controller that does nothing but answer JSON: the framework's own cost. */
export async function startBareNest(): Promise<RunningServer> {
  const app = await NestFactory.create<NestExpressApplication>(NoopModule, { logger: false });
  await app.init();
  const running = await listenOnLoopback(app.getHttpServer());
  return { url: running.url, close: async () => app.close() };
}
