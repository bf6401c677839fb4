import { ManualClock } from '@tally/kernel';
import type { Cell, CellRegistry } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint.events';
import type { DeliveryTarget } from '../outbox/outbox-documents';
import { webhookEndpointPii } from '../webhook-endpoint.pii';
import { SigningSecrets } from './signing-secrets';

const AT = '2026-05-01T10:00:00.000Z';
const LATER = '2026-05-01T11:00:00.000Z';
const target = (id: string, secrets: DeliveryTarget['secrets']): DeliveryTarget => ({ id, url: 'https://example.com', events: ['*'], status: 'enabled', api_version: '2026-04-01', secrets });

describe('signing secrets', () => {
  let temp: TempCells;
  let cells: CellRegistry;
  let cell: Cell;

  beforeEach(() => {
    temp = new TempCells(new ManualClock(AT), webhookEndpointPii);
    cells = temp.open();
    cell = cells.cell('eu');
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  /** Appends an endpoint's events as the command runtime does: `sealed`, the secrets sealed; otherwise in clear, as before they were. */
  async function append(id: string, events: WebhookEndpointEvent[], sealed = true): Promise<void> {
    const stored = await Promise.all(events.map(async (event, i) => ({ id: `01JD00000000000000000000${i}${id.slice(-1)}`, type: event.type, data: sealed ? await cell.pii.encode(event.type, event.data) : event.data, metadata: testMetadata(AT) })));
    await cell.events.append(`webhook_endpoint-${id}`, stored, { expectedRevision: 'any' });
  }
  const created = (id: string, secret: string): WebhookEndpointEvent => ({ type: 'WebhookEndpointCreated', data: { webhook_endpoint_id: id, url: 'https://example.com', events: ['*'], description: null, api_version: '2026-04-01', secret } });
  const rotated = (id: string, secret: string): WebhookEndpointEvent => ({ type: 'WebhookEndpointSecretRotated', data: { webhook_endpoint_id: id, secret, previous_secret_expires_at: LATER } });

  it('opens each secret from the event that holds it sealed, and keeps it from then on', async () => {
    await append('we_1', [created('we_1', 'whsec_a'), rotated('we_1', 'whsec_b')]);
    expect(JSON.stringify((await cell.events.readStream('webhook_endpoint-we_1')).map((event) => event.data))).not.toMatch(/whsec_[ab]/);

    const secrets = new SigningSecrets(cell);
    const reads = jest.spyOn(cell.events, 'readStream');
    const endpoint = target('we_1', [
      { revision: 1, expires_at: null },
      { revision: 0, expires_at: LATER },
    ]);
    expect(await secrets.alive(endpoint, new Date(AT))).toEqual(['whsec_b', 'whsec_a']);
    expect(await secrets.alive(endpoint, new Date(LATER))).toEqual(['whsec_b']);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('reads a secret stored in clear before secrets were sealed, and one a read model of then holds', async () => {
    await append('we_2', [created('we_2', 'whsec_old')], false);
    const secrets = new SigningSecrets(cell);
    expect(await secrets.alive(target('we_2', [{ revision: 0, expires_at: null }]), new Date(AT))).toEqual(['whsec_old']);
    expect(await secrets.alive(target('we_2', [{ secret: 'whsec_kept', expires_at: null }]), new Date(AT))).toEqual(['whsec_kept']);
  });

  it('refuses to sign when the named event holds no secret', async () => {
    await append('we_3', [created('we_3', 'whsec_c')]);
    await expect(new SigningSecrets(cell).alive(target('we_3', [{ revision: 5, expires_at: null }]), new Date(AT))).rejects.toThrow('holds no signing secret');
  });
});
