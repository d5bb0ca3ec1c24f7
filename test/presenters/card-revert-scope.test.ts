/* eslint-disable @typescript-eslint/no-explicit-any -- Slack blocks are JSON documents; tests read them freely. */
import { describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const FILE = 'src/checkout/discounts.ts';
const SHA = 'a0d0d9ac12ab34cd56ef7890a0d0d9ac12ab34cd';
const revertOf = { sha: SHA, subject: 'checkout: stop giving gift cards a share', author: 'Chen Li', date: '2026-11-28T22:00:00Z' };
const proposal = createFixProposal({ file: FILE, before: 'a\nb\n', after: 'a\nc\n', explanation: 'Reverts a0d0d9ac12ab at the failing lines.', revertOf });
const scopeOf = (overrides: Parameters<typeof buildAnalysedIncident>[0]) =>
  ((presentIncidentCard({ incident: buildAnalysedIncident({ proposal, ...overrides }) }).blocks as any[]).find((b) => b.block_id === 'medic_diff').text.text as string).split('\n')[1];

describe('the card says what a revert undoes', () => {
  const revert = { ...revertOf, file: FILE, after: 'a\nc\n', ageDays: 1.4, lines: [{ start: 41, end: 41 }], keptHunks: [{ start: 23, end: 25 }], otherFiles: ['README.md'] };

  it('names the lines undone, the commit, its author and age, and what the commit changed that it keeps, as the explanation under the file', () => {
    const text = scopeOf({ revert });
    expect(text).toBe('↩️ Reverts line 41 of `a0d0d9ac12ab` “checkout: stop giving gift cards a share” (Chen Li, 1.4 day(s) before the first error); keeps its other change to this file (lines 23–25) and its changes to `README.md`.');
  });

  it('says nothing of a revert the proposal is not (its own explanation stands), and escapes the commit text', () => {
    expect(scopeOf({ revert: { ...revert, sha: 'f'.repeat(40) } })).toBe('Reverts a0d0d9ac12ab at the failing lines.');
    expect(scopeOf({ revert: undefined })).toBe('Reverts a0d0d9ac12ab at the failing lines.');
    const hostile = scopeOf({ revert: { ...revert, subject: 'see <!channel> *now*', keptHunks: undefined, otherFiles: undefined } })!;
    expect(hostile).not.toContain('<!channel>');
    expect(hostile).toMatch(/^↩️ Reverts line 41 of `a0d0d9ac12ab` “.*” \(Chen Li, 1\.4 day\(s\) before the first error\)\.$/);
  });
});
