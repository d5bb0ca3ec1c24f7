/** Finding: a model may propose only the operator's policy actions, never Medic's own tools. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApprovedAction, runAutomaticDiagnostics } from '../../src/gateway/actions/action-use-cases.js';
import { describeIntents } from '../../src/gateway/actions/describe-intents.js';
import { proposeActions } from '../../src/gateway/actions/propose-actions.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildCountingAutomation, buildFakePorts, buildHarness, exampleArgs, type Harness } from '../gateway/support.js';

/** Every built-in, each with arguments that pass its schema: well-formed is not enough. */
const BUILT_INS = [
  'logs.poll', 'logs.window', 'docs.search', 'code.search', 'code.read-file', 'code.list-files', 'git.sync', 'git.log',
  'slack.post-card', 'slack.update-card', 'slack.reply', 'slack.ephemeral', 'git.publish-fix', 'github.open-pr', 'github.checks',
  'github.merge-state', 'github.deployment', 'logs.find-line', 'code.check-proposal',
];

describe("model-named intents are limited to the policy catalog", () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let h: Harness;
  let ports: ReturnType<typeof buildFakePorts>;
  let automation: ReturnType<typeof buildCountingAutomation>;
  beforeEach(async () => {
    env = await createTestRedis();
    ports = buildFakePorts();
    automation = buildCountingAutomation();
    h = buildHarness(env.redis, env.prefix, { deps: { ...ports, automation: automation.client } });
  });
  afterEach(async () => env.cleanup());

  it('every registered built-in is refused when a model names it, and a policy action is not', () => {
    const names = h.gateway.registry.list().map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(BUILT_INS));
    const described = describeIntents(h.gateway.registry, [...BUILT_INS, 'diagnostics.pod-logs'].map((tool) => ({ tool, args: exampleArgs(tool) })));
    for (const d of described.slice(0, -1)) expect([d.tool, d.requires, d.refusal?.code]).toEqual([d.tool, 'refused', 'ERR_TOOL_DENIED']);
    expect(described.at(-1)).toMatchObject({ tool: 'diagnostics.pod-logs', requires: 'auto' });
  });

  it('a recommendation naming slack.post-card, code.read-file and logs.window runs none of them', async () => {
    const diagnostics = await proposeActions({
      gateway: h.gateway,
      incidentId: 'inc-1',
      at: '2025-03-01T10:00:00.000Z',
      intents: [
        { tool: 'slack.post-card', args: { key: 'x', message: { text: '<!channel> <https://evil.example|reset your password>', blocks: [] } } },
        { tool: 'code.read-file', args: { path: 'config/secrets.yml' } },
        { tool: 'logs.window', args: { ...exampleArgs('logs.window'), beforeMs: 86_400_000, afterMs: 0, limit: 10_000 } },
        { tool: 'diagnostics.pod-logs', args: exampleArgs('diagnostics.pod-logs') },
      ],
    });
    expect(diagnostics.actions.map((a) => a.tool)).toEqual(['diagnostics.pod-logs']);
    expect(diagnostics.notes.filter((n) => n.includes('ERR_TOOL_DENIED'))).toHaveLength(3);
    expect(ports.calls).toEqual({});
    expect(automation.runs).toHaveLength(1);
  });

  it('a stored intent naming a built-in (an older record) neither runs automatically nor from a Run button', async () => {
    const stored = [{ tool: 'slack.ephemeral', args: exampleArgs('slack.ephemeral') }];
    expect(await runAutomaticDiagnostics({ gateway: h.gateway, intents: stored, incidentId: 'inc-1' })).toEqual([]);
    const argsHash = h.gateway.registry.normalize('slack.ephemeral', stored[0]!.args);
    const result = await runApprovedAction({
      gateway: h.gateway,
      approvals: h.approvals,
      proposed: stored,
      tool: 'slack.ephemeral',
      argsHash: argsHash.argsHash,
      incidentId: 'inc-1',
      userId: APPROVER,
    });
    expect(result).toMatchObject({ status: 'denied', code: 'ERR_STALE_APPROVAL' });
    expect(ports.calls).toEqual({});
  });
});
