import { z } from 'zod';
import type { IncidentGrouping } from '../ports/incident-grouping.js';
import { explicitName } from './identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

const OpenArgs = z.strictObject({ overflowIncidentId: explicitName(), fingerprint: explicitName() });
type OpenArgs = z.infer<typeof OpenArgs>;

/**
 * Operator decisions about grouping, taken in Slack by approvers. MUTATING: each changes what
 * Medic analyses and posts, so it runs only with the clicking approver's recorded approval, and
 * the gateway audits it allowed or denied.
 */
export function createGroupingTools(grouping: IncidentGrouping | undefined): AnyToolSpec[] {
  const group = () => grouping ?? missing('IncidentGrouping');
  return [
    defineTool<OpenArgs, { incidentId: string; opened: boolean }>({
      effect: 'MUTATING', permission: 'approve', reversible: true, upstream: 'medic', timeoutMs: 10_000,
      name: 'incident.open-from-overflow',
      summary: 'Give a family counted into the storm overflow its own incident and analysis',
      schema: OpenArgs,
      identifiers: [['overflowIncidentId'], ['fingerprint']],
      target: (args) => args.fingerprint,
      idempotent: true,
      available: grouping !== undefined,
      handler: (args) => group().openFromOverflow(args),
    }),
  ];
}
