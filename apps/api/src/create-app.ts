import 'reflect-metadata';
import type { NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import type { IdGenerator } from '@tally/kernel';
import { allowedMethodsOf, bodyErrorsMiddleware, BodyValidationPipe, ID_GENERATOR, jsonOnlyMiddleware, ProblemFilter, requestIdMiddleware } from '@tally/platform';
import { AppModule, type AppOptions } from './app.module';

/** The HTTP app: one body parser, one error shape, one validation rule, for every route. */
export async function createApp(options: AppOptions, nest: Pick<NestApplicationOptions, 'logger'> = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), {
    bodyParser: false,
    logger: nest.logger ?? ['error', 'warn', 'log'],
  });
  app.set('query parser', 'simple');
  app.disable('x-powered-by');
  app.use(requestIdMiddleware(app.get<IdGenerator>(ID_GENERATOR)));
  app.use(jsonOnlyMiddleware);
  app.use(json({ limit: '1mb', strict: true }));
  app.use(bodyErrorsMiddleware);
  app.useGlobalFilters(new ProblemFilter(allowedMethodsOf(app.getHttpAdapter().getInstance())));
  app.useGlobalPipes(new BodyValidationPipe());
  app.enableShutdownHooks();
  return app;
}
