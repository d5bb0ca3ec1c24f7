import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { createTemplateMiner } from '../../domain/templates/template-miner.js';
import type { CliCommand } from '../command.js';
import { jsonSafe } from '../terminal-output.js';

const FLUSH_LINES = 1_000;
const USAGE = 'templates FILE';

/**
 * `templates FILE`: one message per line in, one `{"group","template"}` per line out, in order.
 * Two passes over the ids held in memory, so every line shows its group's final template and the
 * id its group ended with (groups found to be one event late are merged).
 */
export const templatesCommand: CliCommand = {
  name: 'templates',
  usage: USAGE,
  summary: 'Group the messages of FILE (one per line) into templates; prints one JSON line per input line',
  async run(args, io) {
    const [file, ...extra] = args;
    if (file === undefined || extra.length > 0) {
      io.stderr.write(`Usage: medic ${USAGE}\n`);
      return 2;
    }
    const problem = await checkReadable(file);
    if (problem) {
      io.stderr.write(`templates: ${problem}\n`);
      return 2;
    }

    const miner = createTemplateMiner();
    const ids: string[] = [];
    // Templates as last seen, for groups the miner has since evicted to stay within its memory cap.
    const lastTemplate = new Map<string, string>();
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        const mined = miner.add(line);
        ids.push(mined.groupId);
        lastTemplate.set(mined.groupId, mined.template);
      }
    } catch (error) {
      io.stderr.write(`templates: could not read ${file}: ${(error as Error).message}\n`);
      return 1;
    }

    let chunk = '';
    for (let i = 0; i < ids.length; i += 1) {
      const id = ids[i] as string;
      const current = miner.lookup(id);
      const out = current ?? { groupId: id, template: lastTemplate.get(id) ?? '' };
      chunk += `${jsonSafe(JSON.stringify({ group: out.groupId, template: out.template }))}\n`;
      if ((i + 1) % FLUSH_LINES === 0) {
        await write(io.stdout, chunk);
        chunk = '';
      }
    }
    if (chunk !== '') await write(io.stdout, chunk);
    return 0;
  },
};

async function checkReadable(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    return info.isDirectory() ? `${file} is a directory, not a file` : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `no such file: ${file}`;
    return `cannot read ${file} (${code ?? (error as Error).message})`;
  }
}

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}
