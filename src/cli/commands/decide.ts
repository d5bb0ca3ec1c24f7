import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { terminalIo } from '../terminal-output.js';

/**
 * `approve <id>` / `reject <id> [reason…]` as the configured operator (MEDIC_OPERATOR_ID), through
 * the same use-case Slack calls: the operator must be an approver, and the decision binds to the
 * proposal shown by `show`.
 */
export function createDecideCommand(verdict: 'approve' | 'reject', boot: BootMedic): CliCommand {
  return {
    name: verdict,
    usage: verdict === 'approve' ? 'approve <incident>' : 'reject <incident> [reason…]',
    summary: verdict === 'approve' ? 'approve the proposed fix as the configured operator' : 'reject the proposed fix with a reason',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const [id, ...rest] = args;
      if (!id) {
        io.stderr.write(`Usage: npm run medic -- ${this.usage}\n`);
        return 2;
      }
      return boot(io, async ({ medic, config }) => {
        const view = await medic.commands.status(id);
        if (!view?.incident.proposal) {
          io.stderr.write(view ? `Incident ${id} has no proposal to ${verdict} (state ${view.incident.state}).\n` : `No incident ${id}.\n`);
          return 1;
        }
        const caller = { userId: config.MEDIC_OPERATOR_ID, via: 'cli' as const };
        const proposalHash = view.incident.proposal.contentHash;
        const result = verdict === 'approve'
          ? await medic.commands.approve({ incidentId: id, caller, proposalHash })
          : await medic.commands.reject({ incidentId: id, caller, proposalHash, reason: rest.join(' ') || 'rejected from the command line' });
        (result.ok ? io.stdout : io.stderr).write(`${result.message}\n`);
        return result.ok ? 0 : 1;
      });
    },
  };
}
