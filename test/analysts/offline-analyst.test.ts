import { describe, expect, it } from 'vitest';
import { createOfflineAnalyst, OFFLINE_MAX_CONFIDENCE } from '../../src/analysts/offline-analyst.js';
import { FIX_ELIGIBLE_CONFIDENCE } from '../../src/domain/analysis.js';
import { buildFixInput, buildRcaInput } from './builders.js';

describe('offline analyst', () => {
  const analyst = createOfflineAnalyst();

  it('names the nearest documented family and cites matching log lines, under fix eligibility', async () => {
    const { rca, provenance } = await analyst.rca(buildRcaInput());
    expect(rca.rootCause).toMatch(/CO-500/);
    expect(rca.evidenceIds).toEqual(['doc-co-500', 'log-6']);
    expect(rca.confidence).toBeGreaterThan(0);
    expect(rca.confidence).toBeLessThanOrEqual(OFFLINE_MAX_CONFIDENCE);
    expect(rca.confidence).toBeLessThan(FIX_ELIGIBLE_CONFIDENCE);
    expect(rca.contributingFactors[0]).toMatch(/a1b2c3d4/);
    expect(provenance).toEqual({ analyst: 'offline', tokens: 0 });
  });

  it('says undetermined and recommends an investigation when no family is close', async () => {
    const { rca } = await analyst.rca(buildRcaInput({ similarDocs: [], logs: { entries: [], from: 'a', to: 'b', note: 'no log window available' } }));
    expect(rca.rootCause).toMatch(/^Undetermined/);
    expect(rca.confidence).toBeLessThan(0.2);
    expect(rca.summary).toMatch(/no log window available/);
    const { recommendation } = await analyst.recommend(rca);
    expect(recommendation.kind).toBe('investigate');
  });

  it('redacts secrets it quotes from the event', async () => {
    const input = buildRcaInput({ similarDocs: [] });
    input.event.message = 'auth failed with password=hunter2 for db';
    const { rca } = await analyst.rca(input);
    expect(rca.rootCause).not.toContain('hunter2');
  });

  it('never proposes a fix, and says why', async () => {
    const result = await analyst.proposeFix(buildFixInput());
    expect(result.draft).toBeUndefined();
    expect(result.note).toMatch(/never writes code changes/);
  });
});
