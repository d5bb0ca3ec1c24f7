import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';
import { plainStatusWord } from '../../presenters/status-words.js';

/** Shorter than this, a prefix could match a proposal the operator never saw. */
export const MIN_HASH_PREFIX = 12;

/**
 * The hash the decision binds to: the current proposal's when `given` is a prefix of it (as `show`
 * printed it), otherwise `given` itself, so the use-case refuses and audits the mismatch.
 */
export function resolveProposalHash(given: string, current: string): string {
  const typed = given.trim().toLowerCase();
  return typed.length >= MIN_HASH_PREFIX && current.startsWith(typed) ? current : typed;
}

/**
 * `approve <id> <proposal-hash>` / `reject <id> [reason…]` as the configured operator
 * (MEDIC_OPERATOR_ID), through the same use-case Slack calls: the operator must be an approver.
 * An approval names the proposal hash `show` printed, so a proposal that changed between `show`
 * and `approve` (a re-run, a newer analysis) is refused rather than approved unseen.
 */
export function createDecideCommand(verdict: 'approve' | 'reject', boot: BootMedic): CliCommand {
  return {
    name: verdict,
    usage: verdict === 'approve' ? 'approve <incident> <proposal-hash>' : 'reject <incident> [reason…]',
    summary: verdict === 'approve' ? 'approve the proposal `show` displayed (by its hash) as the configured operator' : 'reject the proposed fix with a reason',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, {});
      if (typeof parsed === 'number') return parsed;
      const [id, ...rest] = parsed.positionals;
      const shownHash = verdict === 'approve' ? rest[0] : undefined;
      if (!id || (verdict === 'approve' && !shownHash)) {
        io.stderr.write(`usage: medic ${this.usage}${verdict === 'approve' ? '\n(the proposal hash is the one `npm run medic -- show <incident>` prints)' : ''}\n`);
        return 2;
      }
      if (shownHash !== undefined && shownHash.trim().length < MIN_HASH_PREFIX) {
        io.stderr.write(`The proposal hash needs at least ${MIN_HASH_PREFIX} characters of the one \`show\` prints.\n`);
        return 2;
      }
      return boot(io, async ({ medic, config }) => {
        const caller = { userId: config.MEDIC_OPERATOR_ID, via: 'cli' as const };
        const view = await medic.commands.status(id, { caller });
        if (!view?.incident.proposal) {
          io.stderr.write(view ? `Incident ${id} has no proposal to ${verdict} (status: ${plainStatusWord(view.incident)}).\n` : `No incident ${id}.\n`);
          return 1;
        }
        const current = view.incident.proposal.contentHash;
        const result = shownHash !== undefined
          ? await medic.commands.approve({ incidentId: id, caller, proposalHash: resolveProposalHash(shownHash, current) })
          : await medic.commands.reject({ incidentId: id, caller, proposalHash: current, reason: rest.join(' ') || 'rejected from the command line' });
        const hint = !result.ok && result.code === 'ERR_STALE_APPROVAL' ? ` The current proposal is ${current}: run \`npm run medic -- show ${id}\` and approve what it shows.` : '';
        (result.ok ? io.stdout : io.stderr).write(`${result.message}${hint}\n`);
        return result.ok ? 0 : 1;
      });
    },
  };
}
