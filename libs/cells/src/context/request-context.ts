export type Environment = 'live' | 'sandbox';
export type Region = 'us' | 'eu' | 'apac';
export const REGIONS: readonly Region[] = ['us', 'eu', 'apac'];

/** Who is acting, for which tenant and environment, and in which region cell. */
export interface RequestContext {
  tenantId: string;
  environment: Environment;
  region: Region;
  /** `key:<key id>`, `operator`, `process:<name>` or `system`. */
  actor: string;
  requestId: string | null;
  correlationId: string | null;
  causationId: string | null;
  /** Set when a process dispatches a command it issued: the target stream applies a command id once. */
  commandId?: string;
  /** The sandbox test clock the resource lives on, whose time is "now" for this request; none: the system clock. */
  clockId?: string;
}

/** The context on the sandbox test clock a resource lives on, when it lives on one; else the context as it is. */
export const onClockOf = (context: RequestContext, clockId: string | undefined): RequestContext => (clockId ? { ...context, clockId } : context);
