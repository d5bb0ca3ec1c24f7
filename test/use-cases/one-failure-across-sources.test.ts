/**
 * One failure, one incident: the sample's `authorizationId` TypeError is logged by the shop as a
 * JSON record (`service: shop`, the stack in its own field) and by its payments path as a plain
 * line (`[payments]`, a catalog alias of shop, the exception inside the message, the frames on
 * indented lines). Both must land in one incident whichever file, format or log name they came by.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonRecord, parsePlainRecord, type FileLogRecord } from '../../src/adapters/file-logs/parse-entry.js';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { findService } from '../../src/domain/catalog/resolve-service.js';
import { ErrorEvent } from '../../src/domain/event.js';
import { failureSignature } from '../../src/domain/failure-signature.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { useIncidentStore } from '../support/incident-store-world.js';
import { ROOT } from '../support/medic-world.js';

const logs = join(ROOT, 'data/logs');
const isTheFailure = (r: FileLogRecord | undefined): r is FileLogRecord => r !== undefined && r.level === 'ERROR' && r.message.includes("(reading 'authorizationId')");

function sampleEvents(): ErrorEvent[] {
  const json = readFileSync(join(logs, 'shop.jsonl'), 'utf8').split('\n').map((line, n) => parseJsonRecord(line, `shop.jsonl@${n}`, [])).filter(isTheFailure);
  const plain = readFileSync(join(logs, 'shop-gateway.log'), 'utf8').split(/\n(?=\d{4}-\d{2}-\d{2}T)/).map((entry, n) => parsePlainRecord(entry, `shop-gateway.log@${n}`, [])).filter(isTheFailure);
  expect([json.length, plain.length]).toEqual([5, 3]);
  return [...json, ...plain].map((r) => ErrorEvent.parse({ id: `file:${r.sourceId}`, source: 'file', time: r.time, service: r.service, severity: 'error', message: r.message, raw: r.raw, correlationIds: {}, fields: r.fields }));
}

const world = useIncidentStore();

describe('one failure across sources', () => {
  it('gives the JSON and the plain record of the sample failure one failure signature', () => {
    const events = sampleEvents();
    const signatures = new Set(events.map((e) => failureSignature(e, undefined)?.key));
    expect(signatures.size).toBe(1);
    expect([...signatures][0]).toMatch(/^stack:/);
  });

  it('opens one incident for both files when the catalog declares the plain log name an alias of the service', async () => {
    const { part } = parseCatalogFile(readFileSync(join(ROOT, 'data/catalog.yaml'), 'utf8'), 'data/catalog.yaml');
    const { catalog } = assembleCatalog([part!], { channel: 'medic-incidents' });
    const events = sampleEvents();
    expect(new Set(events.map((e) => e.service))).toEqual(new Set(['shop', 'payments']));
    const store = world.store();
    const now = Date.parse(events[events.length - 1]!.time) + 60_000;
    await ingestEvents(events, {
      store, clock: () => new Date(now), enqueueAnalysis: async () => undefined,
      serviceOf: (name) => findService(catalog!, name)?.name,
    });
    const incidents = await store.list();
    expect(incidents).toHaveLength(1);
    expect((await store.stats(incidents[0]!.id))?.count).toBe(8);
  });

  it('keeps two undeclared log names apart: only a declared alias joins a service', async () => {
    const events = sampleEvents();
    const store = world.store();
    const now = Date.parse(events[events.length - 1]!.time) + 60_000;
    await ingestEvents(events, { store, clock: () => new Date(now), enqueueAnalysis: async () => undefined });
    expect(await store.list()).toHaveLength(2);
  });
});
