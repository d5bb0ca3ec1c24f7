/**
 * `npm run medic -- locate REPO_DIR < trace.txt`: the ranked candidate files for an error message
 * or stack trace, as JSON lines `{"file": …, "score": …}`, best first. The same code search the
 * pipeline runs, over the directory read as plain files (nothing in it is run).
 */
import { stat } from 'node:fs/promises';
import type { CliCommand } from '../command.js';
import { createDirectoryRepository } from '../../code-search/directory-repository.js';
import { rankFiles } from '../../code-search/search-code.js';
import { jsonSafe } from '../terminal-output.js';

const MAX_STDIN = 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_STDIN) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_STDIN);
}

export const locateCommand: CliCommand = {
  name: 'locate',
  usage: 'locate REPO_DIR [--limit N] < trace.txt',
  summary: 'rank the files of REPO_DIR an error message or stack trace (stdin) most likely comes from',
  async run(args, io) {
    const limitAt = args.indexOf('--limit');
    const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : 10;
    const dir = args.find((a, i) => !a.startsWith('--') && (limitAt < 0 || i !== limitAt + 1));
    if (!dir || !Number.isInteger(limit) || limit < 1) {
      io.stderr.write(`usage: medic ${locateCommand.usage}\n`);
      return 2;
    }
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      io.stderr.write(`locate: ${dir} is not a directory\n`);
      return 2;
    }
    const text = await readAll(io.stdin);
    if (!text.trim()) {
      io.stderr.write('locate: pipe an error message or stack trace on standard input\n');
      return 2;
    }
    const ranked = await rankFiles(createDirectoryRepository(dir), { text });
    for (const { file, score } of ranked.slice(0, limit)) io.stdout.write(`${jsonSafe(JSON.stringify({ file, score }))}\n`);
    return 0;
  },
};
