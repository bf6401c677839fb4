import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@tally/kernel';
import type { Environment, Region, RequestContext } from '../context/request-context';
import type { DerivedKeys } from '../derived-keys';
import type { PublicUrl } from '../config/public-url';

/**
 * What one kind of signed link is for: its key (derived from the master key under `keyInfo`), the
 * label its signatures bind to, where it points, how long it works, and how a bad link is refused.
 */
export interface LinkPurpose {
  keyInfo: string;
  label: string;
  /** Outside `/v1`, so that the link needs no API key. */
  path: string;
  lifetimeSeconds: number;
  refusals: { invalid: { code: string; detail: string }; expired: { code: string; detail: (expiredAt: string) => string } };
}

/** What a signed link grants: one resource of one tenant's environment, until `expires` (Unix seconds). */
export interface LinkClaims {
  tenantId: string;
  environment: Environment;
  resourceId: string;
  expires: number;
}

export interface SignedLink {
  /** Absolute, under the public URL. */
  url: string;
  expires_at: string;
}

/** What a signed link's request acts as: the link's tenant and environment, in the tenant's region, no request or flow of its own. */
export const linkContext = ({ tenantId, environment }: LinkClaims, region: Region, actor: string): RequestContext => ({
  tenantId,
  environment,
  region,
  actor,
  requestId: null,
  correlationId: null,
  causationId: null,
});

const SIGNATURE_BYTES = 32;
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox'];

/**
 * Signs and checks links of one purpose: `<public URL><path>/{resource_id}?tenant=…&environment=…&expires=…&signature=…`,
 * the signature being the base64url of HMAC-SHA-256, under the purpose's own key, of its label,
 * tenant, environment, resource id and expiry joined by newlines. The secrets travel in the query
 * string, which the access log leaves out.
 */
export class LinkSigner {
  private constructor(
    private readonly purpose: LinkPurpose,
    private readonly key: Buffer,
    private readonly publicUrl: PublicUrl,
  ) {}

  static derive(keys: DerivedKeys, purpose: LinkPurpose, publicUrl: PublicUrl): LinkSigner {
    return new LinkSigner(purpose, keys.derive(purpose.keyInfo), publicUrl);
  }

  sign(context: Pick<RequestContext, 'tenantId' | 'environment'>, resourceId: string, now: Date): SignedLink {
    const expires = Math.floor(now.getTime() / 1000) + this.purpose.lifetimeSeconds;
    const claims: LinkClaims = { tenantId: context.tenantId, environment: context.environment, resourceId, expires };
    const query = new URLSearchParams({ tenant: claims.tenantId, environment: claims.environment, expires: String(expires), signature: this.mac(claims).toString('base64url') });
    return { url: this.publicUrl.of(`${this.purpose.path}/${encodeURIComponent(resourceId)}?${query.toString()}`), expires_at: new Date(expires * 1000).toISOString() };
  }

  /**
   * The claims of a link whose signature holds and that has not expired at `now`. The signature is
   * checked first, in constant time, so a forged link learns nothing of expiry.
   */
  verify(resourceId: string, query: Record<string, unknown>, now: Date): LinkClaims {
    const { tenant, environment, expires, signature } = query;
    const claims = parseClaims(resourceId, tenant, environment, expires);
    const given = typeof signature === 'string' && /^[A-Za-z0-9_-]{43}$/.test(signature) ? Buffer.from(signature, 'base64url') : undefined;
    const expected = claims && this.mac(claims);
    const { invalid, expired } = this.purpose.refusals;
    if (!claims || !given || given.length !== SIGNATURE_BYTES || !timingSafeEqual(given, expected!)) throw new DomainError(invalid.code, 'forbidden', invalid.detail);
    if (now.getTime() >= claims.expires * 1000) throw new DomainError(expired.code, 'forbidden', expired.detail(new Date(claims.expires * 1000).toISOString()));
    return claims;
  }

  private mac(claims: LinkClaims): Buffer {
    const message = [this.purpose.label, claims.tenantId, claims.environment, claims.resourceId, String(claims.expires)].join('\n');
    return createHmac('sha256', this.key).update(message).digest();
  }
}

function parseClaims(resourceId: string, tenant: unknown, environment: unknown, expires: unknown): LinkClaims | undefined {
  if (!ID.test(resourceId) || typeof tenant !== 'string' || !ID.test(tenant)) return undefined;
  if (typeof environment !== 'string' || !ENVIRONMENTS.includes(environment as Environment)) return undefined;
  if (typeof expires !== 'string' || !/^[1-9][0-9]{0,11}$/.test(expires)) return undefined;
  return { tenantId: tenant, environment: environment as Environment, resourceId, expires: Number(expires) };
}
