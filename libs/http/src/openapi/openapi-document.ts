import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { PublicUrl } from '@tally/cells';
import type { LicenseObject, PathItemObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CURRENT_API_VERSION } from '../versions/api-versions';
import { API_KEY_AUTH, OPERATOR_KEY_AUTH } from './api-authenticated.decorator';
import { apiServers } from './api-servers';
import type { ApiSection } from '@tally/runtime';
import { API_SECTIONS } from './api-tags';
import { operationsOf } from './document-walk';
import { toOpenApi31 } from './openapi-31';
import { serveOpenApiJson } from './openapi-json';
import { applyRequestBodyRules } from './request-body-rules';

/**
 * The package is UNLICENSED: no licence is granted. OpenAPI 3.1 names a licence by `name` and an
 * SPDX `identifier` (or a `url`); SPDX's form for a licence not on its list is `LicenseRef-…`.
 */
const API_LICENSE = { name: 'Proprietary: no licence is granted', identifier: 'LicenseRef-Proprietary' } as LicenseObject;

/** The OpenAPI document of every controller's routes, built from their decorators and those of the DTOs and response classes. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Tally API')
    .setDescription(
      'Subscription billing over HTTP/JSON. Errors are `application/problem+json` with a stable `problem` code, listed in docs/errors.md. ' +
        'Every response carries `Request-Id` and `Service-Version` headers. ' +
        'A request body is a JSON object without unknown fields; its strings and keys hold no NUL character and no unpaired surrogate. ' +
        'This document describes the API version named in `info.version`; `GET /openapi.json?version=<date>` answers the document of another version.',
    )
    .setVersion(CURRENT_API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'sk_live_… or sk_test_…', description: 'An API key; it names its environment (live or sandbox)' }, API_KEY_AUTH)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'TALLY_OPERATOR_KEY', description: 'The operator key, for `/v1/operator` routes' }, OPERATOR_KEY_AUTH);
  const sections = app.get<readonly ApiSection[]>(API_SECTIONS);
  for (const section of sections) builder.addTag(section.name, section.description);
  // A JSON copy: the rules below change schema objects that decorators may share with response schemas.
  const document = JSON.parse(JSON.stringify(SwaggerModule.createDocument(app, builder.build(), { autoTagControllers: false }))) as OpenAPIObject;
  applyRequestBodyRules(document);
  toOpenApi31(document);
  return { ...document, info: { ...document.info, license: API_LICENSE }, servers: apiServers(app.get(PublicUrl)), paths: pathsInSectionOrder(document, sections) };
}

/** The paths grouped by section, in the sections' order, for readers of the document that ignore `tags`. */
function pathsInSectionOrder(document: OpenAPIObject, sections: readonly ApiSection[]): OpenAPIObject['paths'] {
  const order = sections.map((section) => section.name);
  const rank = (item: PathItemObject): number => Math.min(...operationsOf({ paths: { '': item } }).map(([, operation]) => order.indexOf(operation.tags?.[0] ?? '')));
  return Object.fromEntries(Object.entries(document.paths).sort(([, a], [, b]) => rank(a) - rank(b)));
}

/** `GET /openapi.json` (each version's document) and the rendered reference of the newest at `GET /docs`: outside `/v1`, so open like the health checks. */
export function serveApiReference(app: INestApplication, document: OpenAPIObject): void {
  serveOpenApiJson(app, document);
  SwaggerModule.setup('docs', app, document, {
    raw: false,
    customSiteTitle: 'Tally API reference',
    // The reference would otherwise send the document's address to an online validator.
    swaggerOptions: { validatorUrl: null },
  });
}
