import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../../presenters/card-actions.js';
import { ackThenAnswer } from './follow-up-click.js';
import type { ListenerDeps } from './listener-deps.js';

/** 👍 / 👎 on the root cause or the fix: recorded by the use-case, acknowledged to the voter only. */
export function registerFeedbackAction(app: App, deps: ListenerDeps): void {
  const pattern = new RegExp(`^${ActionId.Feedback}_(rca|fix)_(up|down)$`);
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: pattern }, ackThenAnswer(deps));
}
