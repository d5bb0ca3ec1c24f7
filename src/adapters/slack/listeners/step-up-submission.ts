import type { App } from '@slack/bolt';
import { z } from 'zod';
import { StepUpModal, StepUpValue } from '../../../presenters/card-actions.js';
import type { AuditLog } from '../../../ports/audit.js';
import type { ActionCommands } from '../../../use-cases/run-action.js';
import { afterAck, tellUser } from './listener-deps.js';

const StepUpMetadata = StepUpValue.extend({ card: z.object({ channel: z.string(), ts: z.string() }).optional() });

function readMetadata(raw: string): z.infer<typeof StepUpMetadata> | undefined {
  try {
    const parsed = StepUpMetadata.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The step-up modal's submission: the typed target and the submitter's verified id go to the
 * use-case, which redeems the challenge through the gateway (distinct, elevated person; exact
 * target). An empty field keeps the modal open; every other refusal reaches the submitter only.
 */
export function registerStepUpSubmission(app: App, actions: ActionCommands, audit?: AuditLog): void {
  app.view(StepUpModal.callbackId, async ({ ack, body, view, client, logger }) => {
    const typed = view.state.values[StepUpModal.blockId]?.[StepUpModal.actionId]?.value?.trim() ?? '';
    if (typed.length === 0) {
      await ack({ response_action: 'errors', errors: { [StepUpModal.blockId]: "Type the target's name to confirm." } });
      return;
    }
    await ack();
    await afterAck();
    const meta = readMetadata(view.private_metadata);
    if (!meta) {
      logger.warn('Step-up submission without valid private_metadata; ignored.');
      return;
    }
    let message: string;
    try {
      message = (await actions.confirmStepUp({ incidentId: meta.incidentId, challengeId: meta.challengeId, typedTarget: typed.slice(0, 200), userId: body.user.id })).message;
    } catch (error) {
      logger.error(`Medic could not confirm the step-up: ${String(error)}`);
      message = 'Medic could not confirm the step-up; try again in a moment.';
    }
    await tellUser({ client, logger, audit }, meta.card?.channel, body.user.id, message);
  });
}
