import type { App } from '@slack/bolt';
import { z } from 'zod';
import { DecisionValue, RejectModal } from '../../../presenters/card-actions.js';
import { afterAck, runUseCase, slackCaller, tellUser, type ListenerDeps } from './listener-deps.js';

const RejectMetadata = DecisionValue.extend({ card: z.object({ channel: z.string(), ts: z.string() }).optional() });

/**
 * The reject modal's submission. A missing reason keeps the modal open with an inline error
 * (Slack's `response_action: errors`); otherwise the ack closes it and the use-case records the
 * rejection bound to the proposal hash. private_metadata round-trips through Slack, not the browser.
 */
export function registerRejectSubmission(app: App, deps: ListenerDeps): void {
  app.view(RejectModal.callbackId, async ({ ack, body, view, client, logger }) => {
    const reason = view.state.values[RejectModal.blockId]?.[RejectModal.actionId]?.value?.trim() ?? '';
    if (reason.length < 3) {
      await ack({ response_action: 'errors', errors: { [RejectModal.blockId]: 'Say why the fix is wrong (3 characters or more).' } });
      return;
    }
    await ack();
    await afterAck();
    let meta: z.infer<typeof RejectMetadata> | undefined;
    try {
      const parsed = RejectMetadata.safeParse(JSON.parse(view.private_metadata));
      meta = parsed.success ? parsed.data : undefined;
    } catch {
      meta = undefined;
    }
    if (!meta) {
      logger.warn('Reject submission without valid private_metadata; ignored.');
      return;
    }
    const { incidentId, proposalHash, card } = meta;
    const result = await runUseCase(logger, 'reject the fix', () =>
      deps.commands.reject({ incidentId, proposalHash, reason: reason.slice(0, 1_000), caller: slackCaller(body.user) }),
    );
    await tellUser({ client, logger, audit: deps.audit }, card?.channel, body.user.id, result.message);
  });
}
