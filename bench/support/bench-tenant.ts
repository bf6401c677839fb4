import { UsageClient } from './usage-load';

/** The JSON body of an answer, or an error naming `what` was asked when it is not a success. */
export async function answerJson(answer: Promise<{ status: number; text: string }>, what: string): Promise<Record<string, unknown>> {
  const { status, text } = await answer;
  if (status >= 300) throw new Error(`${what} answered ${status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Creates a tenant through the operator API, with its rate limits lifted (a bench's load runs far
 * past every default limit, which would answer 429), and waits (`settle`) until the API knows its
 * key and limits, which reach it through the worker's projections. Answers the tenant's id and
 * sandbox key.
 */
export async function createBenchTenant(url: string, operatorKey: string, settle: () => Promise<void>): Promise<{ tenantId: string; key: string }> {
  const operator = new UsageClient(url, operatorKey, [], 1);
  const tenant = await answerJson(operator.send('POST', '/v1/operator/tenants', JSON.stringify({ name: 'Bench', region: 'eu' })), 'creating the tenant');
  const tenantId = tenant.id as string;
  const key = (tenant.api_keys as { environment: string; secret?: string }[]).find((k) => k.environment === 'sandbox')!.secret!;
  const unlimited = { read: 1_000_000, write: 1_000_000, money: 1_000_000, usage: 1_000_000, admin: 1_000_000 };
  await answerJson(operator.send('PATCH', `/v1/operator/tenants/${tenantId}`, JSON.stringify({ rate_limits: unlimited })), 'lifting the rate limits');
  operator.close();
  await settle();
  return { tenantId, key };
}
