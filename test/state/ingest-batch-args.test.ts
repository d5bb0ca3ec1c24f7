/**
 * The batch arguments send a family's shared candidate record once: a candidate reuses the last
 * one's JSON only when every field but its id and first event is the very same value.
 */
import { describe, expect, it } from 'vitest';
import { ingestBatchArgs, type BatchContext } from '../../src/adapters/redis/ingest-batch-args.js';
import { createIncident, type Incident } from '../../src/domain/incident.js';
import type { IngestInput } from '../../src/ports/incident-store.js';
import { buildEvent } from '../support/builders.js';

const named = (kind: string) => (x?: string | number, y?: string) => `${kind}:${x ?? ''}:${y ?? ''}`;
const ctx: BatchContext = {
  keys: {
    processed: 'p', incidents: 'i', pending: 'q', activity: 'a', byState: 's', open: named('open'), forming: named('forming'), last: named('last'),
    cap: named('cap'), scopes: named('scopes'), volume: named('volume'), families: named('families'), template: named('template'),
    overflowVolume: named('ov'), overflowInfo: named('oi'),
  },
  prefix: 't:', hour: 1, overflow: 'overflow:1', nowMs: 3_600_000, msLeftInHour: 1, sampleCap: 20, options: {},
};

/** The candidate shapes the call sends, in order of first use. */
function shapes(inputs: IngestInput[]): string[] {
  const args = ingestBatchArgs(inputs, ctx).map(String);
  const keyCount = Number(args[0]);
  const argv = args.slice(1 + keyCount);
  const groups = Number(argv[6]);
  const strings = argv.slice(9 + 2 * groups, 9 + 2 * groups + Number(argv[7]));
  return strings.filter((s) => s.includes('"fingerprint"'));
}

const input = (candidate: Incident): IngestInput => ({ event: candidate.firstEvent, fingerprint: 'fp', candidate });

describe('candidate shapes in a batch', () => {
  const event = (id: string) => buildEvent({ id, message: 'boom' });
  const base = createIncident({ id: '', fingerprint: 'fp', title: 'boom', event: event('e0'), at: '2026-11-30T09:00:00.000Z' });

  it('sends the shape of candidates built from one base once', () => {
    const sent = shapes([input({ ...base, id: 'a', firstEvent: event('e1') }), input({ ...base, id: 'b', firstEvent: event('e2') })]);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).not.toHaveProperty('id');
  });

  it('serialises a candidate whose other fields differ, even where the other has the field undefined', () => {
    const retitled = { ...base, id: 'b', firstEvent: event('e2'), title: 'other' };
    expect(shapes([input({ ...base, id: 'a', firstEvent: event('e1') }), input(retitled)]).map((s) => (JSON.parse(s) as Incident).title)).toEqual(['boom', 'other']);
    // Same number of fields, and the first's undefined one is absent from the second.
    const first = { ...base, proposalNote: undefined, id: 'x', firstEvent: event('e3') };
    const second = { ...base, id: 'y', firstEvent: event('e4'), note: 'kept' } as unknown as Incident;
    const sent = shapes([input(first), input(second)]);
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[1]!)).toHaveProperty('note', 'kept');
  });
});
