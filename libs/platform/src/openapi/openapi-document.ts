import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { CURRENT_API_VERSION } from '../versions/api-versions';
import { API_KEY_AUTH, OPERATOR_KEY_AUTH } from './api-authenticated.decorator';

/** The OpenAPI document of every controller's routes, built from their decorators and those of the DTOs and response classes. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Tally API')
    .setDescription(
      'Subscription billing over HTTP/JSON. Errors are `application/problem+json` with a stable `problem` code, listed in docs/errors.md. ' +
        'Every response carries `Request-Id` and `Service-Version` headers.',
    )
    .setVersion(CURRENT_API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'sk_live_… or sk_test_…', description: 'An API key; it names its environment (live or sandbox)' }, API_KEY_AUTH)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'TALLY_OPERATOR_KEY', description: 'The operator key, for `/v1/operator` routes' }, OPERATOR_KEY_AUTH)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** `GET /openapi.json` and the rendered reference at `GET /docs`: outside `/v1`, so open like the health checks. */
export function serveApiReference(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Tally API reference',
    // The reference would otherwise send the document's address to an online validator.
    swaggerOptions: { validatorUrl: null },
  });
}
