/* eslint-disable @typescript-eslint/no-explicit-any -- Slack payloads are JSON documents; tests read them freely. */
/**
 * The card's root cause and suspect: a proposal under an undetermined cause says what it rests on,
 * the documented cause keeps its lead within the card's three lines, the suspect is a file of this
 * incident's own stack (or the upstream, for an upstream failure), and evidence lines keep their clues.
 */
import { describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import type { Incident } from '../../src/domain/incident.js';
import { presentCardRootCause, presentEvidenceLine, proposalBasis } from '../../src/presenters/card-analysis.js';
import { presentDetailsModal } from '../../src/presenters/details-modal.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildEvent } from '../support/builders.js';

type Block = Record<string, any>;
const SHA = '1ab9c1b59a5805e5644a8701f042716e35b785de';
const blocksOf = (incident: Incident) => presentIncidentCard({ incident }).blocks as Block[];
const rcaText = (incident: Incident) => (blocksOf(incident).find((b) => b.block_id === 'medic_rca')?.text.text ?? '') as string;
const suspectField = (incident: Incident) => ((blocksOf(incident).find((b) => b.block_id === 'medic_fields')?.fields ?? []) as Block[]).map((f) => f.text as string).find((t) => t.startsWith('*Suspect*')) ?? '';

function revertUnderUndetermined(): Incident {
  const base = buildAnalysedIncident();
  const proposal = createFixProposal({ file: 'src/points/earn.ts', before: 'a\n', after: 'b\n', explanation: 'Reverts 1ab9c1b59a58.' });
  return {
    ...base,
    rca: { ...base.rca!, confidence: 0.1, rootCause: 'Undetermined cause, no documented family matches: TypeError "Cannot read properties of undefined (reading \'multiplier\')" thrown in pointsFor (/srv/loyalty/src/points/earn.ts:7).' },
    proposal: { ...proposal, revertOf: { sha: SHA, subject: 'loyalty: look the tier rate up directly', author: 'Sam Okafor', date: '2026-11-28T05:36:00.000Z' } },
    suspectCommits: [{ sha: SHA, author: 'Sam Okafor', date: '2026-11-28T05:36:00.000Z', subject: 'loyalty: look the tier rate up directly', file: 'src/points/earn.ts', line: 7, ageDays: 2.1 }],
  };
}

describe('what a proposal under an undetermined cause rests on', () => {
  it("says a revert rests only on the suspect commit's blame, before the cause is read", () => {
    const incident = revertUnderUndetermined();
    expect(proposalBasis(incident)).toBe("Undetermined cause — the proposal below is based only on the suspect commit's blame (1ab9c1b5 last changed src/points/earn.ts:7).");
    const text = rcaText(incident);
    expect(text).toMatch(/^\*Root cause\* _Undetermined cause — the proposal below is based only on the suspect commit's blame/);
    // "Undetermined" is said once; the analysis goes on from what it knows.
    expect(text.match(/Undetermined/g)).toHaveLength(1);
    expect(text).toContain('No documented family matches: TypeError');
  });

  it("says a model's fix rests on its reading of the code", () => {
    const incident = { ...revertUnderUndetermined(), proposal: { ...revertUnderUndetermined().proposal!, revertOf: undefined } };
    expect(proposalBasis(incident)).toMatch(/based only on the model's reading of the code/);
  });

  it('says nothing more when the cause is determined or nothing is proposed', () => {
    expect(proposalBasis(buildAnalysedIncident())).toBeUndefined();
    expect(proposalBasis({ ...revertUnderUndetermined(), proposal: undefined })).toBeUndefined();
    expect(rcaText(buildAnalysedIncident())).toMatch(/^\*Root cause\* The payment gateway answers/);
  });
});

describe('the card root cause', () => {
  it('keeps a documented cause and where it was thrown within its three lines', () => {
    const rootCause = "The payment gateway's API v2 nests the authorization in an `authorization` object that is present only for approved payments. TypeError \"Cannot read properties of undefined (reading 'authorizationId')\" thrown in toAuthorization (/srv/shop/src/payments/payment-client.ts:52), code last changed by 9f400e0f \"payments: move to gateway API v2\" (Alice Moreau, 2026-11-25). Cause as documented for \"Payments: missing authorization object on declined payments\" (similarity 0.55).";
    const base = buildAnalysedIncident();
    const [block] = presentCardRootCause({ ...base, rca: { ...base.rca!, rootCause } });
    const text = (block as Block).text.text as string;
    expect(text).toContain('thrown in toAuthorization');
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThan(420);
  });

  it("leaves out the commit a revert's line names, and keeps it when the proposal reverts nothing or another commit", () => {
    const rootCause = 'Discounts are divided by a count that can be zero. RangeError "Invalid discount per item: Infinity" thrown in spreadDiscount (/srv/shop/src/checkout/discounts.ts:44), code last changed by 1ab9c1b5 "checkout: stop giving gift cards a share (of order discounts)" (Chen Li, 2026-11-28). Cause as documented for "Checkout: discount spread over zero items" (similarity 0.61).';
    const base = revertUnderUndetermined();
    const revert = { sha: SHA, subject: 'checkout: stop giving gift cards a share', author: 'Chen Li', date: '2026-11-28T05:36:00.000Z', file: 'src/points/earn.ts', after: 'b\n', ageDays: 2.1, lines: [{ start: 1, end: 1 }] };
    const determined = { ...base, rca: { ...base.rca!, confidence: 0.6, rootCause }, revert };
    const text = rcaText(determined);
    expect(text).toContain('thrown in spreadDiscount (/srv/shop/src/checkout/discounts.ts:44). Cause as documented for');
    expect(text).not.toContain('last changed by');
    // The revert's line, under the file, names the commit instead.
    expect(JSON.stringify(blocksOf(determined).find((b) => b.block_id === 'medic_diff'))).toContain('↩️ Reverts line 1 of `1ab9c1b59a58`');
    expect(rcaText({ ...determined, revert: undefined })).toContain('code last changed by 1ab9c1b5');
    expect(rcaText({ ...determined, revert: { ...revert, sha: 'f'.repeat(40) } })).toContain('code last changed by 1ab9c1b5');
  });
});

describe('the suspect on the card', () => {
  it('names the upstream, not a client file, for an upstream failure', () => {
    const incident: Incident = {
      ...buildAnalysedIncident({ proposal: undefined, state: 'reported' }),
      firstEvent: buildEvent({ service: 'gateway', message: 'upstream error: 502 Bad Gateway', raw: 'upstream error: 502 Bad Gateway', fields: { detail: 'connect ECONNREFUSED 10.2.0.14:8080', upstream: 'shop:8080' } }),
      candidates: ['src/payments/payment-client.ts'],
      recentChanges: [{ sha: '9f400e0f8247', author: 'Alice', date: '2026-11-25', subject: 'payments: move to gateway API v2', files: ['src/payments/payment-client.ts'] }],
    };
    expect(suspectField(incident)).toBe('*Suspect*\nupstream `10.2.0.14:8080` · connection refused');
  });

  it('names a code-search candidate only when it is a frame of this incident\'s stack', () => {
    const base = { ...buildAnalysedIncident({ proposal: undefined, state: 'reported' }), candidates: ['src/payments/payment-client.ts'] };
    const noStack = { ...base, firstEvent: buildEvent({ message: 'checkout slow', raw: 'checkout slow' }) };
    expect(suspectField(noStack)).toBe('*Suspect*\n—');
    const withStack = { ...base, firstEvent: buildEvent({ message: 'boom', raw: 'boom\nTypeError: boom\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)' }) };
    expect(suspectField(withStack)).toBe('*Suspect*\n`src/payments/payment-client.ts`');
  });
});

describe('evidence lines', () => {
  it('show the first line whole with its clues, and mark a stack below it', () => {
    const line = presentEvidenceLine({ id: 'log-3', time: '2026-11-30T08:17:40.288Z', level: 'INFO', service: 'payments', message: 'psp answered txn_id=txn_5fa147c486908c9e orderNumber=SO-061F53C5 http_status=200 decision=declined decline_reason=do_not_honor' });
    expect(line).toContain('decision=declined decline_reason=do_not_honor');
    const stacked = presentEvidenceLine({ id: 'log-5', time: '2026-11-30T08:17:40.291Z', level: 'ERROR', service: 'payments', message: 'request failed: TypeError: boom errorCode=E_INTERNAL\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)' }, true);
    expect(stacked).toMatch(/^log-5 08:17:40.291 ERROR payments: request failed: TypeError: boom errorCode=E\\?_INTERNAL ⏎…$/);
  });

  it('are what View details shows for the cited lines', () => {
    const base = buildAnalysedIncident();
    const incident = { ...base, logs: { ...base.logs!, entries: [...base.logs!.entries, { id: 'log-3', time: '2026-11-30T08:34:02.100Z', level: 'ERROR', service: 'gateway', message: 'upstream error: 502 Bad Gateway detail="connect ECONNREFUSED 10.2.0.14:8080"' }] }, rca: { ...base.rca!, evidenceIds: ['log-3'] } };
    const modal = JSON.stringify(presentDetailsModal({ incident }));
    expect(modal).toContain('connect ECONNREFUSED 10.2.0.14:8080');
  });
});
