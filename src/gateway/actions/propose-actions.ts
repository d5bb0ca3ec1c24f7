import type { ActionIntent } from '../../domain/analysis.js';
import type { Diagnostics, ProposedAction } from '../../domain/incident.js';
import { runAutomaticDiagnostics } from './action-use-cases.js';
import { toActionOutcome } from './action-outcome.js';
import { describeIntents } from './describe-intents.js';
import type { ToolGateway } from '../gateway.js';

/**
 * Validates the recommendation's intents against the registry and runs the READ_ONLY ones for the
 * pipeline. Unknown tools and refused arguments (wildcards, out of range) are dropped with a note,
 * so the card never offers them; MUTATING and DESTRUCTIVE ones are kept for a human to run.
 */
export async function proposeActions(input: { gateway: ToolGateway; intents: readonly ActionIntent[]; notes?: readonly string[]; incidentId: string; traceId?: string; at: string }): Promise<Diagnostics> {
  const notes = [...(input.notes ?? [])];
  const actions: ProposedAction[] = [];
  for (const described of describeIntents(input.gateway.registry, input.intents)) {
    if (described.requires === 'refused' || described.effect === 'UNKNOWN') {
      notes.push(`Dropped ${described.tool.slice(0, 100)}: ${described.refusal?.reason ?? 'refused'} (${described.refusal?.code ?? 'ERR_TOOL_DENIED'}).`.slice(0, 500));
      continue;
    }
    actions.push({
      tool: described.tool,
      summary: described.summary.slice(0, 300),
      effect: described.effect,
      requires: described.requires,
      args: described.args as Record<string, unknown>,
      argsHash: described.argsHash,
      ...(described.target ? { target: described.target.slice(0, 200) } : {}),
      capped: described.capped.map((c) => `${c.field}: ${c.requested} capped to ${c.cap}`),
    });
  }
  const auto = actions.filter((a) => a.requires === 'auto');
  const results = await runAutomaticDiagnostics({ gateway: input.gateway, intents: auto.map((a) => ({ tool: a.tool, args: a.args })), incidentId: input.incidentId, traceId: input.traceId });
  results.forEach(({ result }, i) => {
    const action = auto[i];
    if (action) action.outcome = toActionOutcome(result, input.at);
  });
  return { actions: actions.slice(0, 5), notes: notes.slice(0, 15) };
}
