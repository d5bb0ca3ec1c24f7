import { writeFile } from 'node:fs/promises';
import type { CliCommand } from '../command.js';
import type { BootReader } from '../boot-reader.js';
import { readArgs } from '../read-args.js';
import { readIncident } from '../read-incident.js';
import { terminalIo } from '../terminal-output.js';
import { presentPostmortem } from '../../presenters/postmortem.js';

/** `postmortem <id> [--out FILE]`: the Markdown draft of one incident, from its record and audit trail. */
export function createPostmortemCommand(boot: BootReader, clock: () => Date = () => new Date()): CliCommand {
  return {
    name: 'postmortem',
    usage: 'postmortem <incident> [--out FILE]',
    summary: 'write a postmortem draft (Markdown): impact, root cause, fix, timeline from the audit trail, follow-ups',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { out: { type: 'string', short: 'o' } });
      if (typeof parsed === 'number') return parsed;
      const [id, ...extra] = parsed.positionals;
      const out = parsed.values.out;
      if (!id || extra.length > 0 || out === '') {
        io.stderr.write(`usage: medic ${this.usage}\n`);
        return 2;
      }
      return boot(io, async (reader) => {
        const found = await readIncident(io, reader, id);
        if (!found) return 1;
        const { view, trail } = found;
        const samples = await reader.commands.samples(id);
        const markdown = presentPostmortem({ ...view, trail, samples, generatedAt: clock().toISOString() });
        if (typeof out === 'string') {
          await writeFile(out, markdown, 'utf8');
          io.stderr.write(`wrote the postmortem draft of ${id} to ${out}\n`);
        } else {
          // Markdown is already inert; the terminal still gets its escapes shown, never run.
          io.stdout.write(markdown);
        }
        return 0;
      });
    },
  };
}
