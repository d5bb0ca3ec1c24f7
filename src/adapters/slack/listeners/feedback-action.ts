import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, FeedbackValue, parseValue } from '../../../presenters/card-actions.js';
import { afterAck, clickedMessage, runUseCase, slackCaller, tellUser, type ListenerDeps } from './listener-deps.js';

/** 👍 / 👎 on the root cause or the fix: recorded by the use-case, acknowledged to the voter only. */
export function registerFeedbackAction(app: App, deps: ListenerDeps): void {
  const pattern = new RegExp(`^${ActionId.Feedback}_(rca|fix)_(up|down)$`);
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: pattern }, async ({ ack, body, action, client, logger }) => {
    await ack();
    await afterAck();
    const { channel } = clickedMessage(body);
    const value = parseValue(FeedbackValue, action.value);
    if (!value) return;
    const result = await runUseCase(logger, 'record your feedback', () => deps.commands.feedback({ ...value, caller: slackCaller(body.user) }));
    await tellUser({ client, logger, audit: deps.audit }, channel, body.user.id, result.ok ? 'Thanks — Medic recorded your feedback.' : result.message);
  });
}
