import { describe, expect, it } from 'vitest';
import { IncidentState, type Incident } from '../../src/domain/incident.js';
import { presentIncidentLine } from '../../src/cli/commands/incidents.js';
import { presentIncidentTally } from '../../src/cli/commands/doctor.js';
import { presentList } from '../../src/presenters/command-replies.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { STATE_WORDS, plainStatusWord, presentStatusWord, statusOf } from '../../src/presenters/status-words.js';
import { presentThreadReply } from '../../src/presenters/thread-reply.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const decision = { verdict: 'approved' as const, actor: { kind: 'user' as const, id: 'U0APPROVER' }, proposalHash: 'h', at: 't' };
const fix = { branch: 'fix/inc-1-20240309160000', commit: '0123456789abcdef', pushStatus: 'pushed' as const };

function inState(state: IncidentState): Incident {
  const over: Partial<Incident> = { state };
  if (['approved', 'fixing', 'fixed'].includes(state)) over.decision = decision;
  if (state === 'rejected') over.decision = { ...decision, verdict: 'rejected' };
  if (state === 'fixed') over.fix = fix;
  if (state === 'reported') over.proposal = undefined;
  return buildAnalysedIncident(over);
}

const text = (value: unknown) => JSON.stringify(value);

describe('one vocabulary of status words', () => {
  it('maps every incident state to exactly one non-empty word', () => {
    for (const state of IncidentState.options) {
      const word = STATE_WORDS[state];
      expect(word.word.length, state).toBeGreaterThan(0);
      expect(statusOf(inState(state))).toEqual(word);
    }
    // Nothing claims production is healthy again.
    expect(Object.values(STATE_WORDS).map((w) => w.word).join(' ')).not.toMatch(/\bfixed\b/i);
  });

  it.each(IncidentState.options)('the card, /medic list, the CLI and doctor say the same word for %s', (state) => {
    const incident = inState(state);
    const word = plainStatusWord(incident);
    const cardStatus = text(presentIncidentCard({ incident }).blocks.find((b) => (b as { block_id?: string }).block_id === 'medic_fields'));
    expect(cardStatus).toContain(presentStatusWord(incident));
    expect(text(presentList([{ incident }]).blocks)).toContain(presentStatusWord(incident));
    expect(presentIncidentLine({ incident })).toContain(`  ${word} `);
    if (state !== 'closed') expect(presentIncidentTally([incident])).toContain(`1 ${word}`);
  });

  it('the thread uses the card\'s words for each moment of the fix round', () => {
    const fixed = inState('fixed');
    expect(presentThreadReply({ incident: fixed }, 'branch').text).toContain(STATE_WORDS.fixed.word);
    expect(presentThreadReply({ incident: inState('approved') }, 'approved').text).toContain(STATE_WORDS.approved.word);
    expect(presentThreadReply({ incident: inState('fix_failed') }, 'fix-failed').text).toContain(STATE_WORDS.fix_failed.word);
    const rejected = presentThreadReply({ incident: inState('rejected') }, 'rejected').text;
    expect(rejected).toContain(STATE_WORDS.rejected.word);
    expect(rejected).toContain('Nothing is pushed');
    expect(presentThreadReply({ incident: { ...fixed, fix: { ...fix, checks: 'success' } } }, 'checks').text).toContain('Checks passed');
  });

  it('a reported card says "Analysed — no fix proposed" once, the reason beside it', () => {
    const incident = buildAnalysedIncident({ state: 'reported', proposal: undefined, proposalNote: 'No fix proposed: confidence below 0.7.' });
    const all = text(presentIncidentCard({ incident }).blocks);
    expect(all.split('Analysed — no fix proposed').length - 1).toBe(1);
    expect(all).toContain('confidence below 0.7');
  });

  it('the CLI and doctor never print the raw state name', () => {
    const fixed = inState('fixed');
    expect(presentIncidentLine({ incident: fixed })).toContain('Branch pushed');
    expect(presentIncidentLine({ incident: fixed })).not.toMatch(/\bfixed\b/);
    expect(presentIncidentTally([fixed, inState('awaiting_approval'), inState('awaiting_approval')])).toMatch(/1 Branch pushed · 2 Awaiting approval/);
  });
});
