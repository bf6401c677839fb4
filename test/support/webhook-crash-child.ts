/**
 * The victim of the webhook crash test: a whole Tally (API and worker, so the webhook dispatcher
 * too) on a data dir. It creates a tenant and a webhook endpoint for `customer.*` at the receiver
 * URL it is given, prints `ready <sandbox key> <endpoint id> <endpoint secret>`, then writes
 * without end, one request at a time: write n creates customer n for the first CUSTOMERS writes,
 * then renames customer n % CUSTOMERS to `name-<n>`. Each write makes one public event;
 * `wrote <n>` is printed once write n was answered, so at most write n + 1 is committed unseen.
 *
 *   node -r ./test/support/ts-child.js test/support/webhook-crash-child.ts <dataDir> <receiverUrl>
 */
import { TallyUnderTest } from './tally';

export const CUSTOMERS = 5;

async function main(dataDir: string, receiverUrl: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  const acme = await tally.tenant('Acme', 'eu');
  await tally.liftRateLimits(acme.tenantId);
  const api = tally.as(acme.sandbox);
  const endpoint = (await api.post('/v1/admin/webhook-endpoints', { url: receiverUrl, events: ['customer.*'] }).expect(200)).body as { id: string; secret: string };
  process.stdout.write(`ready ${acme.sandbox} ${endpoint.id} ${endpoint.secret}\n`);
  const customers: string[] = [];
  for (let n = 0; ; n++) {
    if (n < CUSTOMERS) customers.push((await api.post('/v1/customers', { email: `crash-${n}@example.com` }).expect(200)).body.id as string);
    else await api.patch(`/v1/customers/${customers[n % CUSTOMERS]}`, { name: `name-${n}` }).expect(200);
    process.stdout.write(`wrote ${n}\n`);
  }
}

if (require.main === module) {
  main(process.argv[2], process.argv[3]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
