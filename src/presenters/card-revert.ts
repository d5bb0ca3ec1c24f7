import { lineWords } from '../domain/fix.js';
import type { Incident } from '../domain/incident.js';
import { code, untrusted } from './mrkdwn.js';

/**
 * What a revert proposal undoes, said as the proposal's explanation: the lines of its file it
 * undoes, the commit (sha, subject, author, age), and what else that commit changed which the
 * revert keeps — its other hunks in the file and its other files. Undefined when the proposal is
 * no revert of the blamed commit. Commit text is untrusted, like logs.
 */
export function presentRevertScope(incident: Incident): string | undefined {
  const revert = incident.revert;
  const of = incident.proposal?.revertOf;
  if (!revert || !of || of.sha !== revert.sha || incident.proposal?.file !== revert.file) return undefined;
  const lines = revert.lines?.length ? `${revert.lines.map(lineWords).join(', ')} of ` : '';
  const kept = [
    revert.keptHunks?.length ? `its other change${revert.keptHunks.length === 1 ? '' : 's'} to this file (${revert.keptHunks.slice(0, 3).map(lineWords).join(', ')}${revert.keptHunks.length > 3 ? ', …' : ''})` : '',
    revert.otherFiles?.length ? `its changes to ${revert.otherFiles.slice(0, 3).map((f) => code(f, 120)).join(', ')}${revert.otherFiles.length > 3 ? ` and ${revert.otherFiles.length - 3} more file(s)` : ''}` : '',
  ].filter(Boolean);
  return `↩️ Reverts ${lines}\`${revert.sha.slice(0, 12)}\` “${untrusted(revert.subject.split('\n', 1)[0] ?? '', 120)}” (${untrusted(revert.author, 80)}, ${revert.ageDays} day(s) before the first error)${kept.length ? `; keeps ${kept.join(' and ')}` : ''}.`;
}
