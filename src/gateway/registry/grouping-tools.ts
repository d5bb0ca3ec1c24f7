import { z } from 'zod';
import type { IncidentGrouping } from '../../ports/incident-grouping.js';
import { explicitName } from '../arguments/identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

const OpenArgs = z.strictObject({ overflowIncidentId: explicitName(), fingerprint: explicitName() });
type OpenArgs = z.infer<typeof OpenArgs>;
const MergeArgs = z.strictObject({ incidentId: explicitName(), intoIncidentId: explicitName() });
type MergeArgs = z.infer<typeof MergeArgs>;
const FIELD = /^[A-Za-z_][\w.-]{0,63}$/;
const SplitArgs = z.strictObject({ incidentId: explicitName(), field: explicitName().refine((v) => FIELD.test(v), 'must be a field name') });
type SplitArgs = z.infer<typeof SplitArgs>;

/**
 * Operator decisions about grouping, taken in Slack by approvers. MUTATING: each changes what
 * Medic analyses and posts, so it runs only with the clicking approver's recorded approval, and
 * the gateway audits it allowed or denied.
 */
export function createGroupingTools(grouping: IncidentGrouping | undefined): AnyToolSpec[] {
  const group = () => grouping ?? missing('IncidentGrouping');
  const base = { effect: 'MUTATING', permission: 'approve', reversible: false, upstream: 'medic', timeoutMs: 10_000, available: grouping !== undefined } as const;
  return [
    defineTool<MergeArgs, { incidentId: string }>({
      ...base,
      name: 'incident.merge',
      summary: "Fold an open incident into another: events, count and future events join the survivor's card",
      schema: MergeArgs,
      identifiers: [['incidentId'], ['intoIncidentId']],
      target: (args) => args.incidentId,
      // The survivor changes too: its card, count and future events.
      alsoAuthorizedOn: async (args) => [{ incidentId: args.intoIncidentId }],
      handler: (args) => group().mergeIncidents(args),
    }),
    defineTool<SplitArgs, { family: string; field: string }>({
      ...base,
      name: 'incident.split',
      summary: "Split an incident's family by an event field, for every future event",
      schema: SplitArgs,
      identifiers: [['incidentId'], ['field']],
      target: (args) => args.incidentId,
      idempotent: true,
      handler: (args) => group().splitFamily(args),
    }),
    defineTool<OpenArgs, { incidentId: string; opened: boolean }>({
      effect: 'MUTATING', permission: 'approve', reversible: true, upstream: 'medic', timeoutMs: 10_000,
      name: 'incident.open-from-overflow',
      summary: 'Give a family counted into the storm overflow its own incident and analysis',
      schema: OpenArgs,
      identifiers: [['overflowIncidentId'], ['fingerprint']],
      target: (args) => args.fingerprint,
      idempotent: true,
      available: grouping !== undefined,
      // The overflow card gathers every service's families: opening one is a decision on its service.
      alsoAuthorizedOn: async (args) => {
        const service = await group().overflowFamilyService(args);
        return service === undefined ? [] : [{ service }];
      },
      handler: (args) => group().openFromOverflow(args),
    }),
  ];
}
