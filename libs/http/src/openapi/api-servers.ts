import type { ServerObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Where the API answers: `/`, which a reader resolves against the address it read the document from. */
export const apiServers = (): ServerObject[] => [{ url: '/', description: 'The server this document was read from' }];
