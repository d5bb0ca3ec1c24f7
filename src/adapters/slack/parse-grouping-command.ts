/** `/medic merge A into B` and `/medic split A by FIELD`: the grouping decisions an approver types. */
export type GroupingCommand =
  | { kind: 'merge'; incidentId: string; intoIncidentId: string }
  | { kind: 'split'; incidentId: string; field: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;
const FIELD = /^[A-Za-z_][\w.-]{0,63}$/;

/** Undefined when the text is not a grouping command (the rest of /medic handles it). */
export function parseGroupingCommand(text: string): GroupingCommand | undefined {
  const [verb = '', a = '', joiner = '', b = '', ...extra] = text.trim().split(/\s+/);
  if (extra.length > 0 || !ID.test(a)) return undefined;
  if (verb.toLowerCase() === 'merge' && joiner.toLowerCase() === 'into' && ID.test(b)) return { kind: 'merge', incidentId: a, intoIncidentId: b };
  if (verb.toLowerCase() === 'split' && joiner.toLowerCase() === 'by' && FIELD.test(b)) return { kind: 'split', incidentId: a, field: b };
  return undefined;
}
