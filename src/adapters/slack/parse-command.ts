/** What `/medic <text>` asks for. Anything unrecognised is help (with what was not understood). */
export type MedicCommand =
  | { kind: 'fix'; incidentId: string; reason?: string }
  | { kind: 'status'; incidentId: string }
  | { kind: 'timeline'; incidentId: string }
  | { kind: 'list' }
  | { kind: 'help'; unknown?: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

export function parseMedicCommand(text: string): MedicCommand {
  const [verb = '', ...rest] = text.trim().split(/\s+/).filter(Boolean);
  const name = verb.toLowerCase();
  const arg = rest.join(' ');
  const [id = '', ...words] = rest;
  // `/medic fix <incident> [reason…]`: everything after the id is the reason, kept as typed.
  if (name === 'fix' && ID.test(id)) {
    const reason = text.trim().slice(text.trim().indexOf(id, verb.length) + id.length).trim().slice(0, 1_000);
    return { kind: 'fix', incidentId: id, ...(words.length > 0 && reason ? { reason } : {}) };
  }
  if ((name === 'status' || name === 'timeline') && rest.length === 1 && ID.test(arg)) return { kind: name, incidentId: arg };
  if (name === 'list' && rest.length === 0) return { kind: 'list' };
  if ((name === 'help' || name === '') && rest.length === 0) return { kind: 'help' };
  return { kind: 'help', unknown: text.trim().slice(0, 200) };
}
