import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, DECORATORS } from '@nestjs/swagger';
import { API_VERSIONS } from '../versions/api-versions';

export const API_KEY_AUTH = 'api_key';
export const OPERATOR_KEY_AUTH = 'operator_key';

/** A `/v1` controller: its bearer key, and the `Service-Version` header that picks the version it answers in. */
export function ApiAuthenticated(scheme: typeof API_KEY_AUTH | typeof OPERATOR_KEY_AUTH): ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(scheme),
    ApiHeader({ name: 'Service-Version', required: false, enum: [...API_VERSIONS], description: 'The API version to answer in; default: the tenant’s pinned version, else the newest' }),
  );
}

/** A controller outside `/v1` that takes no key (health checks, signed links): `security: []`, so that readers and linters of the document see it is open on purpose. */
export const ApiWithoutKey = (): ClassDecorator => SetMetadata(DECORATORS.API_SECURITY, []);
