import type { App, Logger } from '@slack/bolt';
import type { ChatMessage } from '../../../ports/chat.js';
import type { Caller } from '../../../use-cases/incident-commands.js';
import { presentHelp, presentList, presentNotice, presentStatus } from '../../../presenters/command-replies.js';
import { untrusted } from '../../../presenters/mrkdwn.js';
import { parseMedicCommand } from '../parse-command.js';
import { parseGroupingCommand } from '../parse-grouping-command.js';
import { answerGrouping } from './grouping-command.js';
import { afterAck, runUseCase, type ListenerDeps } from './listener-deps.js';

async function answer(text: string, caller: Caller, deps: ListenerDeps, logger: Logger): Promise<ChatMessage> {
  const grouping = parseGroupingCommand(text);
  if (grouping && deps.grouping) return presentNotice(untrusted((await answerGrouping(grouping, caller.userId, deps.grouping)).message, 2_000));
  const command = parseMedicCommand(text);
  switch (command.kind) {
    case 'help':
      return presentHelp(command.unknown ? `Medic does not know \`${untrusted(command.unknown, 200)}\`.` : undefined);
    case 'list':
      return presentList(await deps.commands.list({ openOnly: true, limit: 50 }));
    case 'status':
      return presentStatus(await deps.commands.status(command.incidentId), command.incidentId);
    case 'fix': {
      const result = await runUseCase(logger, 're-run the fix proposal', () => deps.commands.rerun({ incidentId: command.incidentId, caller }));
      return presentNotice(untrusted(result.message, 2_000));
    }
  }
}

/**
 * `/medic fix|status|list|help`. The ack is empty and immediate (Slack's 3 seconds); the answer goes
 * to the response_url as an ephemeral message, so only the caller sees it.
 */
export function registerMedicCommand(app: App, deps: ListenerDeps, name = '/medic'): void {
  app.command(name, async ({ ack, command, respond, logger }) => {
    await ack();
    await afterAck();
    const caller: Caller = { userId: command.user_id, ...(command.user_name ? { name: command.user_name } : {}), via: 'slack' };
    let reply: ChatMessage;
    try {
      reply = await answer(command.text, caller, deps, logger);
    } catch (error) {
      logger.error(`/medic ${command.text.slice(0, 80)} failed: ${String(error)}`);
      reply = presentNotice('Medic could not answer that right now; try again in a moment.');
    }
    try {
      await respond({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks as never });
    } catch (error) {
      logger.warn(`Could not answer /medic through the response_url: ${String(error)}`);
    }
  });
}
