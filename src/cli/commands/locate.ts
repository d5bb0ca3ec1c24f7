/**
 * `npm run medic -- locate REPO_DIR < trace.txt`: the ranked candidate files for an error message
 * or stack trace, as JSON lines `{"file": …, "score": …}`, best first, with `"commit"` — the
 * commit that last changed the file's failing line (blame of HEAD) — when REPO_DIR is a git work
 * tree and the trace names a line of that file. The same code search the pipeline runs, over the
 * directory read as plain files (nothing in it is run).
 */
import { stat } from 'node:fs/promises';
import type { CliCommand } from '../command.js';
import { readArgs } from '../read-args.js';
import { createDirectoryRepository } from '../../code-search/directory-repository.js';
import { createWorkTreeHistory } from '../../adapters/git/work-tree-history.js';
import { rankFiles } from '../../code-search/search-code.js';
import { findSuspectCommitsIn } from '../../retrieval/find-suspect-commits.js';
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
    const parsed = readArgs(args, io, locateCommand, { limit: { type: 'string' } });
    if (typeof parsed === 'number') return parsed;
    const limit = parsed.values.limit !== undefined ? Number(parsed.values.limit) : 10;
    const [dir, ...extra] = parsed.positionals;
    if (!dir || extra.length > 0 || !Number.isInteger(limit) || limit < 1) {
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
    const repo = createDirectoryRepository(dir);
    const ranked = (await rankFiles(repo, { text })).slice(0, limit);
    const history = createWorkTreeHistory(dir);
    const suspects = history ? await findSuspectCommitsIn({ listFiles: () => repo.listFiles(), ...history }, { text, time: new Date().toISOString(), frames: limit }) : [];
    for (const { file, score } of ranked) {
      const commit = suspects.find((s) => s.file === file)?.sha;
      io.stdout.write(`${jsonSafe(JSON.stringify(commit ? { file, score, commit } : { file, score }))}\n`);
    }
    return 0;
  },
};
