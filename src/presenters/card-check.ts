import type { Incident } from '../domain/incident.js';
import type { ProposalCheck } from '../domain/proposal-check.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { code, context, escapeText, section, untrustedCode } from './mrkdwn.js';

type Block = Record<string, unknown>;

const SHOWN_LINES = 8;
const SHOWN_CHARS = 900;
// Where compilers and test runners start saying what went wrong (tsc, go, javac, python, mvn, jest…).
const FIRST_ERROR = /error|fail|exception|cannot|undefined|not found|\*\*\*|panic|traceback/i;

/** `3.2 s`, `45 ms`. */
function seconds(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1_000 ? ` ${ms} ms` : ` ${(ms / 1_000).toFixed(1)} s`;
}

/** The first error lines of the output (from the first line that reads like an error), bounded. */
export function firstErrorLines(output: string): string[] {
  const lines = output.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  const start = Math.max(0, lines.findIndex((l) => FIRST_ERROR.test(l)));
  const shown: string[] = [];
  let chars = 0;
  for (const line of lines.slice(start, start + SHOWN_LINES)) {
    if (chars + line.length > SHOWN_CHARS) {
      if (shown.length === 0) shown.push(`${line.slice(0, SHOWN_CHARS - 1)}…`);
      break;
    }
    shown.push(line);
    chars += line.length + 1;
  }
  return shown;
}

/**
 * The proposal's check on the card, in one block: `Check ✓ \`npm run build\` 3.2 s` when it passed,
 * `Check ✗ …` with its first error lines in a code block (and why Approve is not offered) when it
 * did not, `not checked` when the service names no check command. The output was redacted when it
 * was captured and is redacted again here, like every untrusted text on the card.
 */
export function presentProposalCheck(incident: Incident): Block | undefined {
  const proposal = incident.proposal;
  if (!proposal) return undefined;
  const check: ProposalCheck | undefined = incident.proposalCheck?.contentHash === proposal.contentHash ? incident.proposalCheck : undefined;
  const command = check?.command ? ` ${code(redactSecrets(check.command), 120)}` : '';
  const isolation = check?.isolation ? ` · ${escapeText(check.isolation)}` : '';
  if (!check || check.status === 'not-checked') {
    return { ...context(`Check – not checked${check?.reason ? `: ${escapeText(check.reason)}` : ''}`), block_id: 'medic_check' };
  }
  // A passed check is one line: its command's tail (the part that names the tool), whole in View details.
  if (check.status === 'passed') return { ...context(`Check ✓ ${code(tail(redactSecrets(check.command ?? ''), 48), 60)}${seconds(check.durationMs)}${isolation}`), block_id: 'medic_check' };
  const what = check.status === 'timed-out'
    ? ` timed out${check.reason ? ` (${escapeText(check.reason)})` : ''}`
    : check.status === 'not-run'
      ? ` could not run: ${escapeText(check.reason ?? 'unknown reason')}`
      : `${check.exitCode === undefined ? '' : ` exit ${check.exitCode}`}${check.reason ? ` (${escapeText(check.reason)})` : ''}`;
  const lines = firstErrorLines(check.output ?? '');
  const output = lines.length > 0 ? `\n\`\`\`${untrustedCode(lines.join('\n'), SHOWN_CHARS + 50)}\`\`\`` : '';
  // A timeout names its limit already; a run that could not start has no duration.
  const took = check.status === 'failed' && check.durationMs !== undefined ? ` ·${seconds(check.durationMs)}` : '';
  return section(`*Check ✗*${command}${what}${took}${isolation} — not offered for approval${output}`, 'medic_check');
}

/** The last `max` characters of a command, on a word, marked as cut: `…tsc --noEmit -p tsconfig.json`. */
function tail(command: string, max: number): string {
  if (command.length <= max) return command;
  const cut = command.slice(-max);
  const space = cut.indexOf(' ');
  return `…${space > 0 && space < max / 2 ? cut.slice(space + 1) : cut}`;
}
