import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { invalidParameter } from '@tally/runtime';
import { toProblem } from '../problems/problem.filter';
import { traceIdOf } from '../request-id.middleware';
import { isApiVersion, type ApiVersion } from '../versions/api-versions';
import { resolveApiVersion, unknownApiVersion } from '../versions/request-version';
import { announceApiVersion } from '../versions/service-version-header';
import { documentInVersion } from './document-in-version';

/**
 * `GET /openapi.json`: the document of the version asked for with `?version=<date>`, else with the
 * `Service-Version` header, else of the newest; each version's is built once, when first asked for.
 * The response names its version in `Service-Version`, as API responses do.
 */
export function serveOpenApiJson(app: INestApplication, current: OpenAPIObject): void {
  const built = new Map<ApiVersion, string>();
  const json = (version: ApiVersion): string => {
    const known = built.get(version);
    if (known !== undefined) return known;
    const text = JSON.stringify(documentInVersion(current, version));
    built.set(version, text);
    return text;
  };
  app.getHttpAdapter().get('/openapi.json', (request: Request, response: Response) => {
    let version: ApiVersion;
    try {
      version = documentVersionOf(request);
    } catch (error) {
      const problem = toProblem(error, traceIdOf(request));
      response.status(problem.status).type('application/problem+json').json(problem);
      return;
    }
    announceApiVersion(response, version);
    response.type('application/json').send(json(version));
  });
}

/** Any parameter but `version` is refused, as on every route. */
function documentVersionOf(request: Request): ApiVersion {
  const { version, ...others } = request.query;
  const [other] = Object.keys(others);
  if (other !== undefined) throw invalidParameter(other, `Unknown parameter ${other}; /openapi.json takes version`);
  if (version === undefined) return resolveApiVersion(request, undefined);
  if (typeof version !== 'string' || !isApiVersion(version)) throw unknownApiVersion('version');
  return version;
}
