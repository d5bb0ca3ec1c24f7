/**
 * `/medic` through the real Bolt app: every command is acked at once (empty 200) and answered on
 * the response_url as an ephemeral only the caller sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { buildBlockActions, buildSlashCommand } from '../fixtures/slack/build-payloads.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from './support/slack-harness.js';
import { parseMedicCommand } from '../../src/adapters/slack/parse-command.js';

let h: SlackHarness;
const incident = buildAnalysedIncident({ id: 'inc-cmd-1', title: 'Order <!channel> failed & <https://evil.example|click>' });

beforeAll(async () => {
  h = await startSlackHarness();
  h.commands.add(incident);
});
afterAll(async () => h.close());

/** Sends `/medic <text>` with a response_url on the sandbox and returns the ephemeral answer. */
async function slash(text: string, userId = 'U0APPROVER') {
  const responseUrl = `${h.sandbox.url}respond/cmd-${Math.random().toString(36).slice(2)}`;
  const token = responseUrl.split('/respond/')[1]!;
  h.sandbox.state.responseUrls.set(token, { userId, channel: h.sandbox.channelId });
  const before = h.sandbox.state.messages.filter((m) => m.ephemeralFor === userId).length;
  const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody(buildSlashCommand({ userId, text, responseUrl, channel: h.sandbox.channelId })));
  while (h.sandbox.state.messages.filter((m) => m.ephemeralFor === userId).length === before) await new Promise((r) => setImmediate(r));
  const answer = h.sandbox.state.messages.filter((m) => m.ephemeralFor === userId).at(-1)!;
  return { result, answer, blocks: JSON.stringify(answer.blocks) };
}

describe('/medic', () => {
  it('help: an empty ack, then the help text', async () => {
    const { result, blocks } = await slash('help');
    expect(result).toEqual({ status: 200, body: '' });
    expect(blocks).toContain('/medic status');
  });

  it('unknown input gets the help, naming what was not understood (escaped)', async () => {
    const { blocks } = await slash('deploy <!here> now');
    expect(blocks).toContain('does not know');
    expect(blocks).toContain('&lt;!here&gt;');
    expect(blocks).not.toContain('<!here>');
  });

  it('list shows open incidents with escaped titles', async () => {
    const { blocks } = await slash('list');
    expect(blocks).toContain('inc-cmd-1');
    expect(blocks).toContain('&lt;!channel&gt;');
    expect(blocks).not.toContain('<https://evil.example');
  });

  it('status shows the card without buttons', async () => {
    const { blocks } = await slash('status inc-cmd-1');
    expect(blocks).toContain('Root cause');
    expect(blocks).not.toContain('medic_approve');
  });

  it('fix <id> <reason> hands the reason to the re-run; over a pushed branch it asks first, and Re-run anyway confirms', async () => {
    await slash('fix inc-cmd-1 the guard belongs in the caller');
    expect(h.commands.calls.filter((c) => c.method === 'rerun').at(-1)?.input).toMatchObject({ incidentId: 'inc-cmd-1', reason: 'the guard belongs in the caller' });
    h.commands.add(buildAnalysedIncident({ id: 'inc-cmd-2', state: 'fixed', fix: { branch: 'fix/inc-cmd-2-20261130100000', commit: 'c', pushStatus: 'pushed' } }));
    const { answer, blocks } = await slash('fix inc-cmd-2 checks failed');
    expect(blocks).toContain('fix/inc-cmd-2-20261130100000');
    expect(blocks).toContain('Re-run anyway');
    const button = (answer.blocks as { block_id?: string; elements?: { action_id: string; value: string }[] }[]).find((b) => b.block_id === 'medic_rerun')!.elements![0]!;
    const responseUrl = `${h.sandbox.url}respond/confirm-${Math.random().toString(36).slice(2)}`;
    h.sandbox.state.responseUrls.set(responseUrl.split('/respond/')[1]!, { userId: 'U0APPROVER', channel: h.sandbox.channelId });
    const payload = buildBlockActions({ userId: 'U0APPROVER', actionId: button.action_id, value: button.value, channel: h.sandbox.channelId, responseUrl });
    const answers = () => h.sandbox.state.messages.filter((m) => m.ephemeralFor === 'U0APPROVER').length;
    const before = answers();
    await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(payload) }));
    while (answers() === before) await new Promise((r) => setImmediate(r));
    expect(h.sandbox.state.messages.filter((m) => m.ephemeralFor === 'U0APPROVER').at(-1)?.text).toContain('Re-running the analysis of inc-cmd-2');
    expect(h.commands.calls.filter((c) => c.method === 'rerun').at(-1)?.input).toMatchObject({ incidentId: 'inc-cmd-2', reason: 'checks failed', confirmed: true });
  });

  it('timeline shows the escaped timeline from the audit trail; an incident it cannot read is not shown', async () => {
    h.commands.trails.set('inc-cmd-1', [
      { at: '2024-03-09T16:00:01.000Z', action: 'step.intake', outcome: 'done', actor: { kind: 'pipeline', id: 'medic' }, details: { service: 'checkout', severity: 'error', firstEventAt: '2024-03-09T16:00:00.000Z' } },
      { at: '2024-03-09T16:05:00.000Z', action: 'incident.reject', outcome: 'allowed', actor: { kind: 'user', id: 'U0APPROVER', name: 'dana' }, reason: 'wrong <!channel> <https://evil.example|fix>' },
    ]);
    const { blocks } = await slash('timeline inc-cmd-1');
    expect(blocks).toContain('Timeline of');
    expect(blocks).toContain('2024-03-09 16:00:00 UTC');
    expect(blocks).toContain('First event in checkout (error)');
    expect(blocks).toContain('by dana');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).not.toContain('<https://evil.example');
    expect(h.commands.calls.filter((c) => c.method === 'timeline').at(-1)?.input).toMatchObject({ incidentId: 'inc-cmd-1', viewer: { caller: { userId: 'U0APPROVER' }, channel: h.sandbox.channelId } });
    expect((await slash('timeline inc-nope')).blocks).toContain('No incident inc-nope that you can read here');
  });

  it('list shows the fixes awaiting verification, with their count by stage', async () => {
    h.commands.add(buildAnalysedIncident({ id: 'inc-cmd-3', state: 'fixed', fix: { branch: 'fix/inc-cmd-3-1', commit: 'c', pushStatus: 'pushed' }, verification: { status: 'awaiting_merge', since: '2024-03-09T16:05:00.000Z', windowMinutes: 30, looks: 0 } }));
    const { answer, blocks } = await slash('list');
    expect(blocks).toContain('Awaiting verification* (1: 1 awaiting merge)');
    expect(blocks).toContain('inc-cmd-3');
    expect(answer.text).toContain('awaiting verification: 1');
  });

  it('status of an unknown incident says so', async () => {
    const { blocks } = await slash('status inc-nope');
    expect(blocks).toContain('No incident');
  });

  it('fix re-runs through the use-case with the verified caller, and refuses a non-approver', async () => {
    const ok = await slash('fix inc-cmd-1');
    expect(ok.blocks).toContain('Re-running');
    expect(h.commands.calls.filter((c) => c.method === 'rerun').at(-1)?.input).toMatchObject({ incidentId: 'inc-cmd-1', caller: { userId: 'U0APPROVER', via: 'slack' } });
    const refused = await slash('fix inc-cmd-1', 'U0VIEWER');
    expect(refused.blocks).toContain('Only approvers');
  });
});

describe('parseMedicCommand', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['LIST', { kind: 'list' }],
    ['status inc-1', { kind: 'status', incidentId: 'inc-1' }],
    ['timeline inc-1', { kind: 'timeline', incidentId: 'inc-1' }],
    ['timeline', { kind: 'help', unknown: 'timeline' }],
    ['timeline a b', { kind: 'help', unknown: 'timeline a b' }],
    ['  fix   inc-2 ', { kind: 'fix', incidentId: 'inc-2' }],
    ['fix', { kind: 'help', unknown: 'fix' }],
    ['fix a because it is wrong', { kind: 'fix', incidentId: 'a', reason: 'because it is wrong' }],
    ['fix', { kind: 'help', unknown: 'fix' }],
    ['status *', { kind: 'help', unknown: 'status *' }],
    ['rm -rf', { kind: 'help', unknown: 'rm -rf' }],
  ])('%j → %j', (text, expected) => {
    expect(parseMedicCommand(text)).toEqual(expected);
  });
});
