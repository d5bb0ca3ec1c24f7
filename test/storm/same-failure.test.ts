import { afterEach, describe, expect, it } from 'vitest';
import type { Medic } from '../../src/app/create-medic.js';
import type { RepositoryOf } from '../../src/domain/failure-signature.js';
import type { Incident } from '../../src/domain/incident.js';
import { inInvocationScope } from '../../src/gateway/invocation-scope.js';
import { runAnalysis } from '../../src/pipeline/run-analysis.js';
import { sameFailureStep } from '../../src/pipeline/steps/same-failure.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { awaitIncident, cardsDelivered, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';

const at = Date.parse('2026-11-30T09:00:00.000Z');
const DIVIDE = 'RangeError: Invalid discount per item: Infinity';
const FRAMES = (root: string) => [
  `    at spreadDiscount (/srv/${root}/src/checkout/discounts.ts:44:11)`,
  `    at applyDiscounts (/srv/${root}/src/checkout/discounts.ts:58:10)`,
  `    at priceCart (/srv/${root}/src/checkout/cart-total.ts:30:18)`,
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

let seq = 0;
function failure(service: string, message: string, stack: string[] = []) {
  const time = new Date(at + ++seq * 1_000).toISOString();
  return buildEvent({ id: `file:${service}.jsonl@${seq}`, service, time, message, raw: [message, ...stack].join('\n') });
}

/** Ingests one service's event through the real ingest path and runs its whole analysis. */
async function reportAndAnalyse(medic: Medic, event: ReturnType<typeof buildEvent>, repositoryOf?: RepositoryOf): Promise<Incident> {
  const created: string[] = [];
  await ingestEvents([event], {
    store: medic.store, clock: () => new Date(at + seq * 1_000),
    enqueueAnalysis: async (id) => void created.push(id),
  });
  expect(created).toHaveLength(1);
  // As the analyze job runs it: the gateway's calls carry the incident.
  return inInvocationScope(created[0], () => runAnalysis(created[0]!, { ...medic.pipeline, ...(repositoryOf ? { repositoryOf } : {}) }));
}

async function cardsOf(w: World, incidentId: string): Promise<string[]> {
  const rows = (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).map((r) => JSON.parse(r) as { kind: string; key: string; blocks: unknown[] });
  // The console chat keys a card's post and updates by the post key.
  return rows.filter((r) => r.key === `card:${incidentId}`).map((r) => JSON.stringify(r.blocks));
}

describe('the same failure reported by two services', () => {
  it('is linked through the poll and analyze jobs: one fix proposal, on the first card; the second card says "same failure as" the first', async () => {
    world = await createWorld({ llm: 'scripted' });
    await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await world.startMedic();
    await medic.startWorkers();
    const w = world;
    const first = await awaitIncident(w, medic, ['awaiting_approval']);
    expect(first.proposal?.file).toBe('src/checkout/discounts.ts');

    // Another service, another deployment root, another message around the same exception and frames.
    await w.writeLogs('storefront.jsonl', `${JSON.stringify({
      time: '2026-11-30T09:20:00.000Z', level: 'ERROR', service: 'storefront', message: `order pricing failed: ${DIVIDE}`,
      stack: [DIVIDE, ...FRAMES('storefront'), '    at placeOrder (/srv/storefront/src/checkout/checkout.ts:40:17)'].join('\n'),
    })}\n`);
    const second = await w.waitFor(async () => (await medic.store.list({ states: ['reported'] })).find((i) => i.service === 'storefront'), 'the second service\'s incident');
    expect(second.fingerprint).not.toBe(first.fingerprint);
    expect(second.sameFailureAs).toMatchObject({ incidentId: first.id, service: 'shop', kind: 'stack', card: first.card });
    expect(second.proposal).toBeUndefined();
    expect(second.proposalNote).toContain(`Same failure as ${first.id}`);
    expect(second.provenance.fix).toBeUndefined(); // no model was asked for a second fix

    // The card is the delivery job's: awaited, not read the instant the incident is recorded.
    const card = await w.waitFor(async () => {
      const last = (await cardsOf(w, second.id)).at(-1);
      return last?.includes('same failure as') ? last : undefined;
    }, 'the second card, saying "same failure as"');
    expect(card).toContain(`same failure as \`${first.id}\` in \`shop\``);
    const holder = await medic.store.require(first.id);
    expect(holder.sameFailures).toEqual([{ incidentId: second.id, service: 'storefront' }]);
    expect(holder.state).toBe('awaiting_approval');
    expect((await cardsOf(w, first.id)).at(-1)).toContain('also reported by `storefront`');

    const linkAudit = (await medic.audit.list({ incidentId: first.id })).filter((a) => a.action === 'incident.same-failure');
    expect(linkAudit.map((a) => a.details)).toEqual([{ incident: second.id, service: 'storefront' }]);
    const stepAudit = (await medic.audit.list({ incidentId: second.id })).find((a) => a.action === 'step.same-failure');
    expect(stepAudit?.details).toMatchObject({ sameFailureAs: first.id, signature: 'stack' });
    // One proposal in all: approving the first card is the fix for both.
    expect((await medic.store.list()).filter((i) => i.proposal)).toHaveLength(1);
  }, 90_000);

  it('is not linked when the exception type differs, or the frames do', async () => {
    world = await createWorld({ llm: 'offline' });
    const medic = await world.startMedic();
    const first = await reportAndAnalyse(medic, failure('shop', `request failed: ${DIVIDE}`, [DIVIDE, ...FRAMES('shop')]));
    const otherType = 'TypeError: Invalid discount per item: Infinity';
    const byType = await reportAndAnalyse(medic, failure('storefront', `request failed: ${otherType}`, [otherType, ...FRAMES('storefront')]));
    const otherFrames = [FRAMES('storefront')[0]!, '    at orderDiscount (/srv/storefront/src/checkout/discounts.ts:33:11)', FRAMES('storefront')[2]!];
    const byFrames = await reportAndAnalyse(medic, failure('billing', `request failed: ${DIVIDE}`, [DIVIDE, ...otherFrames]));
    for (const incident of [byType, byFrames]) expect(incident.sameFailureAs).toBeUndefined();
    expect((await medic.store.require(first.id)).sameFailures).toEqual([]);
  }, 60_000);

  it('without a stack, is linked by the same family in services that share a repository, and not across repositories', async () => {
    world = await createWorld({ llm: 'offline' });
    const medic = await world.startMedic();
    const message = 'ledger sync refused by upstream: connection reset';
    const first = await reportAndAnalyse(medic, failure('billing', message));
    const shared = await reportAndAnalyse(medic, failure('invoicing', message));
    expect(shared.sameFailureAs).toMatchObject({ incidentId: first.id, kind: 'family' });

    const apart: RepositoryOf = (service) => (service === 'payouts' ? 'acme/payouts' : 'acme/shop');
    const elsewhere = await reportAndAnalyse(medic, failure('payouts', message), apart);
    expect(elsewhere.sameFailureAs).toBeUndefined();
    const otherFamily = await reportAndAnalyse(medic, failure('refunds', 'refund queue consumer stalled'));
    expect(otherFamily.sameFailureAs).toBeUndefined();
    expect((await medic.store.require(first.id)).sameFailures.map((s) => s.service)).toEqual(['invoicing']);
  }, 60_000);

  it('links once when the step runs again after its link was written (a worker killed before the step was recorded)', async () => {
    world = await createWorld({ llm: 'offline' });
    const medic = await world.startMedic();
    await medic.startWorkers({ poll: false }); // the card delivery job posts the cards
    const message = 'ledger sync refused by upstream: connection reset';
    const first = await reportAndAnalyse(medic, failure('billing', message));
    const created: string[] = [];
    await ingestEvents([failure('invoicing', message)], { store: medic.store, clock: () => new Date(at), enqueueAnalysis: async (id) => void created.push(id) });
    const secondId = created[0]!;
    // The claim and the back-link are written, then the worker dies before the step's output is persisted.
    const lost = await sameFailureStep.run(await medic.store.require(secondId), medic.pipeline);
    expect(lost.patch.sameFailureAs?.incidentId).toBe(first.id);
    const second = await inInvocationScope(secondId, () => runAnalysis(secondId, medic.pipeline));
    expect(second.sameFailureAs?.incidentId).toBe(first.id);
    const holder = await medic.store.require(first.id);
    expect(holder.sameFailures).toEqual([{ incidentId: secondId, service: 'invoicing' }]);
    const links = (await medic.audit.list({ incidentId: first.id })).filter((a) => a.action === 'incident.same-failure');
    expect(links).toHaveLength(1);
    const steps = (await medic.audit.list({ incidentId: secondId })).filter((a) => a.action === 'step.same-failure');
    expect(steps).toHaveLength(1);
    // The card is the delivery job's: wait for its post, then make sure no second one follows.
    const w = world;
    const postsOf = async () => (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).filter((r) => (JSON.parse(r) as { kind: string; key: string }).kind === 'post' && r.includes(`card:${secondId}`));
    await w.waitFor(async () => (await postsOf()).length > 0, 'the second card');
    // Once no delivery is queued, running or waiting for a retry, no second post can follow.
    await w.waitFor(() => cardsDelivered(medic), 'the card deliveries to drain');
    expect(await postsOf()).toHaveLength(1);
  }, 60_000);

  it('takes over a signature whose holder is closed', async () => {
    world = await createWorld({ llm: 'offline' });
    const medic = await world.startMedic();
    const message = 'ledger sync refused by upstream: connection reset';
    const first = await reportAndAnalyse(medic, failure('billing', message));
    await medic.store.update(first.id, (current) => ({ incident: { ...current, state: 'closed' }, audit: [] }));
    const later = await reportAndAnalyse(medic, failure('invoicing', message));
    expect(later.sameFailureAs).toBeUndefined();
    const third = await reportAndAnalyse(medic, failure('payments', message));
    expect(third.sameFailureAs?.incidentId).toBe(later.id);
  }, 60_000);

  it('links to the first card once it is posted, when the first had none at link time', async () => {
    world = await createWorld({ llm: 'offline' });
    const medic = await world.startMedic();
    const message = 'ledger sync refused by upstream: connection reset';
    const ids: string[] = [];
    await ingestEvents([failure('billing', message), failure('invoicing', message)], { store: medic.store, clock: () => new Date(at), enqueueAnalysis: async (id) => void ids.push(id) });
    const [firstId, secondId] = ids as [string, string];
    // Both analyses start together: the second links to the first before the first posted its card.
    await sameFailureStep.run(await medic.store.require(firstId), medic.pipeline);
    const { patch } = await sameFailureStep.run(await medic.store.require(secondId), medic.pipeline);
    expect(patch.sameFailureAs).toMatchObject({ incidentId: firstId });
    expect(patch.sameFailureAs?.card).toBeUndefined();
    await medic.store.update(secondId, (current) => ({ incident: { ...current, ...patch, steps: { 'same-failure': { at: 't' } } }, audit: [] }));
    const first = await inInvocationScope(firstId, () => runAnalysis(firstId, medic.pipeline));
    const second = await inInvocationScope(secondId, () => runAnalysis(secondId, medic.pipeline));
    expect(second.sameFailureAs?.card).toEqual(first.card);
  }, 60_000);
});
