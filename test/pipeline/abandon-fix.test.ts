/** A fix given up after its retries: its outcome is the push, whatever failed after it. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { abandonFix, type FixDeps } from '../../src/pipeline/run-fix.js';
import type { CardDeliveries } from '../../src/ports/card-delivery.js';
import type { FixResult } from '../../src/domain/fix.js';
import { buildIncident } from '../support/builders.js';
import { useIncidentStore } from '../support/incident-store-world.js';

const world = useIncidentStore();

/** Deliveries that keep what was asked of them: the card requests are all a fix makes of Slack. */
function keptDeliveries(): CardDeliveries & { cards: string[] } {
  const cards: string[] = [];
  return { cards, requestCard: async (id) => void cards.push(id), requestReply: async () => undefined };
}

async function fixingIncident(id: string, fix?: FixResult) {
  const incident = buildIncident({ id, fingerprint: `fp-${id}` });
  const event = { ...incident.firstEvent, id: `evt-${id}` };
  await world.store().ingest([{ event, fingerprint: incident.fingerprint, candidate: { ...incident, firstEvent: event } }], Date.now());
  await world.store().update(id, (current) => ({ incident: { ...current, state: 'fixing', ...(fix ? { fix } : {}) }, audit: [] }));
}

function deps(deliveries: CardDeliveries): FixDeps {
  const never = async () => Promise.reject(new Error('not called'));
  return {
    store: world.store(), deliveries, publisher: { publish: never, check: never }, pullRequests: { open: never, check: never },
    clock: () => new Date(), logger: createLogger({ level: 'silent' }), metrics: createMetrics(),
  };
}

describe('a fix given up after its retries', () => {
  it('is fixed when its branch was pushed (a later step failed), and the card is asked to show it', async () => {
    await fixingIncident('inc-pushed', { branch: 'fix/inc-pushed-20261202', commit: 'abc123', pushStatus: 'pushed' });
    const deliveries = keptDeliveries();
    const ended = await abandonFix('inc-pushed', 'Fix failed: the pull request could not be opened', deps(deliveries));
    expect(ended.state).toBe('fixed');
    expect(ended.error).toBeUndefined();
    expect(deliveries.cards).toEqual(['inc-pushed']);
  });

  it('is fix_failed when nothing was pushed', async () => {
    await fixingIncident('inc-unpushed');
    const ended = await abandonFix('inc-unpushed', 'Fix failed: the remote refused the push', deps(keptDeliveries()));
    expect(ended.state).toBe('fix_failed');
    expect(ended.error).toBe('Fix failed: the remote refused the push');
  });
});
