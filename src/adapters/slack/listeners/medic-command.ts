import type { App, BlockAction, ButtonAction, Logger } from '@slack/bolt';
import type { ChatMessage } from '../../../ports/chat.js';
import type { Caller, Viewer } from '../../../use-cases/incident-commands.js';
import { ActionId, RerunValue, parseValue } from '../../../presenters/card-actions.js';
import { presentHelp, presentList, presentNotice, presentRerunConfirm, presentStatus } from '../../../presenters/command-replies.js';
import { untrusted } from '../../../presenters/mrkdwn.js';
import { presentTimelineMessage } from '../../../presenters/timeline-message.js';
import { buildTimeline } from '../../../domain/timeline.js';
import { parseMedicCommand } from '../parse-command.js';
import { parseGroupingCommand } from '../parse-grouping-command.js';
import { answerGrouping } from './grouping-command.js';
import { afterAck, auditReply, runUseCase, slackCaller, type ListenerDeps } from './listener-deps.js';

async function rerun(deps: ListenerDeps, logger: Logger, input: { incidentId: string; reason?: string | undefined; caller: Caller; confirmed?: boolean }): Promise<ChatMessage> {
  const { reason, ...rest } = input;
  const result = await runUseCase(logger, 're-run the analysis', () => deps.commands.rerun({ ...rest, ...(reason ? { reason } : {}) }));
  if (!result.ok && result.code === 'ERR_CONFIRM_REQUIRED') {
    return presentRerunConfirm(result.message, { incidentId: input.incidentId, ...(reason ? { reason } : {}) });
  }
  return presentNotice(untrusted(result.message, 2_000));
}

const NOT_READABLE = (id: string) =>
  `No incident ${untrusted(id, 80)} that you can read here: an incident is shown in its own channel, and anywhere to approvers and MEDIC_READERS.`;

async function answer(text: string, viewer: Viewer, deps: ListenerDeps, logger: Logger): Promise<ChatMessage> {
  const { caller } = viewer;
  const grouping = parseGroupingCommand(text);
  if (grouping && deps.grouping) return presentNotice(untrusted((await answerGrouping(grouping, caller.userId, deps.grouping)).message, 2_000));
  const command = parseMedicCommand(text);
  switch (command.kind) {
    case 'help':
      return presentHelp(command.unknown ? `Medic does not know \`${untrusted(command.unknown, 200)}\`.` : undefined);
    case 'list': {
      const [open, awaiting] = await Promise.all([deps.commands.list(viewer, { openOnly: true, limit: 50 }), deps.commands.awaitingVerification(viewer)]);
      return presentList(open, awaiting);
    }
    case 'status': {
      const view = await deps.commands.status(command.incidentId, viewer);
      return view ? presentStatus(view, command.incidentId) : presentNotice(NOT_READABLE(command.incidentId));
    }
    case 'timeline': {
      // Read under the same rule as status: its own channel, or a reader anywhere.
      const found = await deps.commands.timeline(command.incidentId, viewer);
      return found ? presentTimelineMessage(found.view.incident, buildTimeline(found.trail)) : presentNotice(NOT_READABLE(command.incidentId));
    }
    case 'fix':
      return rerun(deps, logger, { incidentId: command.incidentId, reason: command.reason, caller });
  }
}

/**
 * `/medic fix|status|timeline|list|help`. The ack is empty and immediate (Slack's 3 seconds); the answer goes
 * to the response_url as an ephemeral message, so only the caller sees it. A re-run of an incident
 * with a pushed branch answers with a Re-run anyway button, which replaces that answer when clicked.
 */
export function registerMedicCommand(app: App, deps: ListenerDeps, name = '/medic'): void {
  app.command(name, async ({ ack, command, respond, client, logger }) => {
    await ack();
    await afterAck();
    const caller: Caller = { userId: command.user_id, ...(command.user_name ? { name: command.user_name } : {}), via: 'slack' };
    let reply: ChatMessage;
    try {
      // channel_id comes from the verified request: where the person asked, not where they claim to be.
      reply = await answer(command.text, { caller, channel: command.channel_id }, deps, logger);
    } catch (error) {
      logger.error(`/medic ${command.text.slice(0, 80)} failed: ${String(error)}`);
      reply = presentNotice('Medic could not answer that right now; try again in a moment.');
    }
    const audited = { client, logger, audit: deps.audit };
    const details = { command: parseMedicCommand(command.text).kind, channel: command.channel_id };
    try {
      await respond({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks as never });
      await auditReply(audited, 'slack.respond', caller.userId, 'done', details);
    } catch (error) {
      logger.warn(`Could not answer /medic through the response_url: ${String(error)}`);
      await auditReply(audited, 'slack.respond', caller.userId, 'failed', details);
    }
  });

  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.RerunConfirm }, async ({ ack, body, action, respond, logger }) => {
    await ack();
    await afterAck();
    const value = parseValue(RerunValue, action.value);
    const reply = value
      ? await rerun(deps, logger, { incidentId: value.incidentId, reason: value.reason, caller: slackCaller(body.user), confirmed: true })
      : presentNotice('This button is no longer valid; run `/medic fix <incident>` again.');
    try {
      await respond({ response_type: 'ephemeral', replace_original: true, text: reply.text, blocks: reply.blocks as never });
    } catch (error) {
      logger.warn(`Could not answer the re-run confirmation: ${String(error)}`);
    }
  });
}
