export * from './problem.response';
export * from './problem-codes';
export * from './api-problem-responses.decorator';
export * from './api-list-response.decorator';
export * from './api-authenticated.decorator';
export * from './api-idempotent.decorator';
export * from './known-fields';
export * from './openapi-document';
