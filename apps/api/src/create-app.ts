import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express, { json } from 'express';
import type { IdGenerator } from '@tally/kernel';
import { allowedMethodsOf, answerClientErrorsWithProblems, bodyErrorsMiddleware, EarlyAnswerAdmission, bodyShapeMiddleware, BodyValidationPipe, buildOpenApiDocument, shutDownGracefully, jsonOnlyMiddleware, ProblemFilter, verifyUtf8, httpTelemetryMiddleware, requestIdMiddleware, serveApiReference, serviceVersionHeaderMiddleware } from '@tally/http';
import { ID_GENERATOR } from '@tally/cells';
import { createJsonLog, createLog, NestJsonLogger, TallyMetrics, type JsonLog } from '@tally/observability';
import { AppModule, type AppOptions } from './app.module';

/**
 * The HTTP app: one body parser, one error shape, one validation rule, for every route. Logs are
 * lines on stdout at LOG_LEVEL in LOG_FORMAT, or to `logging.logger`; `false` silences them (tests, benchmarks).
 */
export async function createApp(options: AppOptions, logging: { logger?: JsonLog | false } = {}): Promise<NestExpressApplication> {
  const log = logging.logger === false ? createJsonLog('silent') : (logging.logger ?? createLog(options.config));
  // A worker thread logs on its own, from the config: a silenced app silences it too.
  const config = logging.logger === false ? { ...options.config, logLevel: 'silent' as const } : options.config;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...options, config }), new ExpressAdapter(caseSensitiveExpress()), {
    bodyParser: false,
    logger: new NestJsonLogger(log),
  });
  app.set('query parser', 'simple');
  app.disable('x-powered-by');
  // Only resources carry an ETag, their revision (see etag.ts); Express would tag every body, errors included.
  app.set('etag', false);
  answerClientErrorsWithProblems(app.getHttpServer());
  app.use(requestIdMiddleware(app.get<IdGenerator>(ID_GENERATOR)));
  app.use(httpTelemetryMiddleware(log, app.get(TallyMetrics)));
  app.use(serviceVersionHeaderMiddleware);
  app.use(jsonOnlyMiddleware);
  app.use(json({ limit: '1mb', strict: false, verify: verifyUtf8 }));
  app.use(bodyErrorsMiddleware);
  app.use(bodyShapeMiddleware);
  const admission = app.get(EarlyAnswerAdmission);
  app.useGlobalFilters(new ProblemFilter(allowedMethodsOf(app.getHttpAdapter().getInstance()), (request, response) => admission.refusalOf(request, response)));
  app.useGlobalPipes(new BodyValidationPipe());
  serveApiReference(app, buildOpenApiDocument(app));
  shutDownGracefully(app);
  return app;
}

/** `/V1/Customers` is not `/v1/customers`: one spelling per route, set before the router exists. */
function caseSensitiveExpress(): express.Express {
  const server = express();
  server.set('case sensitive routing', true);
  return server;
}
