import type { GroupingCommand } from '../parse-grouping-command.js';
import type { GroupingCommands } from '../../../use-cases/grouping-commands.js';

/** Runs a typed grouping decision as the verified caller; a thrown error is an answer, not a crash. */
export async function answerGrouping(command: GroupingCommand, userId: string, grouping: GroupingCommands): Promise<{ ok: boolean; message: string }> {
  try {
    return command.kind === 'merge'
      ? await grouping.merge({ incidentId: command.incidentId, intoIncidentId: command.intoIncidentId, userId })
      : await grouping.split({ incidentId: command.incidentId, field: command.field, userId });
  } catch (error) {
    return { ok: false, message: `Medic could not ${command.kind} ${command.incidentId}: ${(error as Error).message}` };
  }
}
