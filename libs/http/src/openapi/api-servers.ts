import type { ServerObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { PublicUrl } from '@tally/cells';

/** Where the API answers: its public address (`TALLY_PUBLIC_URL`), as every URL Tally hands out is absolute. */
export const apiServers = (publicUrl: PublicUrl): ServerObject[] => [{ url: publicUrl.base, description: 'This Tally, at its public address' }];
