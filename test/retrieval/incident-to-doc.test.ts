import { describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/adapters/embedding/local-embedder.js';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { Incident } from '../../src/domain/incident.js';
import { findSimilarDocs } from '../../src/retrieval/find-similar-docs.js';
import { incidentAsDoc, upsertIncidentDoc } from '../../src/retrieval/incident-to-doc.js';
import { buildEvent, buildIncident } from '../support/builders.js';

function resolvedIncident(overrides: Partial<Incident> = {}): Incident {
  const event = buildEvent({
    service: 'checkout',
    errorCode: 'CART-TOTAL',
    message: 'TypeError: Cannot read properties of undefined (reading "price") in cart total',
    raw: 'TypeError: Cannot read properties of undefined (reading "price") in cart total\n    at total (/srv/shop/src/checkout/cart-total.ts:12:9)',
  });
  return buildIncident({
    id: 'inc-42',
    title: 'TypeError: Cannot read properties of undefined (reading "price") in cart total',
    service: 'checkout',
    firstEvent: event,
    rca: {
      rootCause: 'Removed products leave cart lines without a product, and the total reads line.product.price.',
      contributingFactors: ['No foreign key between cart lines and products'],
      evidenceIds: ['log-0'],
      impactedComponent: 'checkout cart total',
      severity: 'error',
      confidence: 0.8,
      summary: 'Cart lines outlive their products.',
      sequenceOfEvents: [],
    },
    proposal: createFixProposal({ file: 'src/checkout/cart-total.ts', before: 'a', after: 'b', explanation: 'Skip lines whose product is gone.' }),
    decision: { verdict: 'approved', actor: { kind: 'user', id: 'U123', name: 'Dana' }, proposalHash: 'h', at: '2026-11-30T10:00:00.000Z' },
    fix: { branch: 'fix/inc-42-20261130100000', commit: 'c0ffee', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://git.example/pr/7' } },
    ...overrides,
  });
}

describe('incidentAsDoc', () => {
  it('turns a resolved incident into a document: symptom, root cause, fix, verdict and feedback', () => {
    const doc = incidentAsDoc(resolvedIncident(), { rootCauseCorrect: true, note: 'Also purge carts nightly.' })!;
    expect(doc).toMatchObject({ id: 'incident-inc-42', source: 'incidents', service: 'checkout', errorCode: 'CART-TOTAL' });
    expect(doc.title).toBe('Incident inc-42: TypeError: Cannot read properties of undefined (reading "price") in cart total');
    for (const part of ['## Symptom', '## Root cause', 'line.product.price', '## Fix', 'src/checkout/cart-total.ts: Skip lines', '## Verdict', 'approved by Dana', 'The root cause was confirmed.', 'https://git.example/pr/7', '## Feedback', 'purge carts nightly']) {
      expect(doc.body).toContain(part);
    }
  });

  it('marks a root cause the approver judged wrong, and records a rejection with its reason', () => {
    const incident = resolvedIncident({ decision: { verdict: 'rejected', actor: { kind: 'user', id: 'U9' }, proposalHash: 'h', at: '2026-11-30T10:00:00.000Z', reason: 'wrong file' }, fix: undefined });
    const doc = incidentAsDoc(incident, { rootCauseCorrect: false })!;
    expect(doc.body).toContain('## Root cause given (judged wrong)');
    expect(doc.body).toContain('The proposed fix was rejected by U9 at 2026-11-30T10:00:00.000Z. Reason: wrong file');
  });

  it('has nothing to learn from an incident with no analysis and no feedback', () => {
    expect(incidentAsDoc(buildIncident())).toBeUndefined();
    expect(incidentAsDoc(buildIncident(), { note: 'It was the CDN.' })?.body).toContain('It was the CDN.');
  });

  it('redacts secrets that came in with the logs', () => {
    const event = buildEvent({ message: 'auth failed with password=hunter2hunter2 for Bearer abcdefghijklmnopqrstuvwxyz' });
    const doc = incidentAsDoc(resolvedIncident({ firstEvent: event }))!;
    expect(doc.body).not.toContain('hunter2hunter2');
    expect(doc.body).not.toContain('abcdefghijklmnopqrstuvwxyz');
  });

  it('is upserted under a stable id, so the next similar error finds it and a re-resolution replaces it', async () => {
    const deps = { embedder: createLocalEmbedder(), store: createMemoryVectorStore() };
    await upsertIncidentDoc(deps, resolvedIncident());
    await upsertIncidentDoc(deps, resolvedIncident(), { note: 'Confirmed by the on-call.' });
    expect(await deps.store.count()).toBe(1);
    const next = buildEvent({ service: 'checkout', message: 'TypeError: Cannot read properties of undefined (reading "price") in cart total' });
    const [top] = await findSimilarDocs(deps, { event: next, template: next.message });
    expect(top).toMatchObject({ id: 'incident-inc-42', source: 'incident inc-42' });
    expect(top!.excerpt).toContain('Symptom');
    expect(await upsertIncidentDoc(deps, buildIncident())).toBeUndefined();
  });
});
