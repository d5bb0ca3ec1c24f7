/**
 * `/medic` through the real Bolt app: every command is acked at once (empty 200) and answered on
 * the response_url as an ephemeral only the caller sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { buildSlashCommand } from '../fixtures/slack/build-payloads.js';
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
