import { describeError } from '../../app/describe-error.js';
import { ErrorEvent } from '../../domain/event.js';
import { findSimilarDocs } from '../../retrieval/find-similar-docs.js';
import type { RetrievalDeps } from '../../retrieval/indexed-doc.js';
import { ingestDocs } from '../../retrieval/ingest-docs.js';
import type { CliCommand, CliIo } from '../command.js';
import { readArgs } from '../read-args.js';
import { terminalJson } from '../terminal-output.js';

/** The configured embedder and store, plus how to release them; built by the composition root. */
export interface DocsDeps extends RetrievalDeps {
  /** MEDIC_DOCS_DIR (or the sample docs), used when `docs ingest` is given no directory. */
  defaultDir?: string;
  close(): Promise<void>;
}

const USAGE = 'docs ingest [DIR] | docs search TEXT';

async function readStdin(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

async function ingest(deps: DocsDeps, dir: string, io: CliIo): Promise<number> {
  const report = await ingestDocs(deps, { dir });
  const rebuilt = report.rebuilt ? ` The index was rebuilt for ${deps.embedder.id}.` : '';
  io.stdout.write(
    `Indexed ${report.sections} sections from ${report.files} files in ${dir}: ${report.added} added, ${report.unchanged} unchanged, ${report.removed} removed.${rebuilt}\n`,
  );
  return 0;
}

async function search(deps: DocsDeps, text: string, io: CliIo): Promise<number> {
  // The same query path as the pipeline's similar-docs step, for an operator checking what it finds.
  const event = ErrorEvent.parse({ id: 'cli', source: 'cli', time: new Date().toISOString(), service: 'cli', severity: 'error', message: text, raw: text });
  for (const doc of await findSimilarDocs(deps, { event, template: text })) {
    io.stdout.write(`${terminalJson({ id: doc.id, title: doc.title, source: doc.source, similarity: Number(doc.similarity.toFixed(4)) })}\n`);
  }
  return 0;
}

/**
 * `docs ingest [DIR]`: index the Markdown error families, runbooks and postmortems under DIR (one
 * document per `##` section; re-running updates edited sections and drops deleted ones).
 * `docs search TEXT` (or TEXT on stdin): print the nearest documents as JSON lines.
 */
export function createDocsCommand(buildDeps: (io: CliIo) => Promise<DocsDeps>): CliCommand {
  return {
    name: 'docs',
    usage: USAGE,
    summary: 'index the error-family documents under DIR, or search them',
    async run(args, io) {
      const parsed = readArgs(args, io, this, {});
      if (typeof parsed === 'number') return parsed;
      const [action, ...rest] = parsed.positionals;
      if ((action !== 'ingest' && action !== 'search') || (action === 'ingest' && rest.length > 1)) {
        io.stderr.write(`Usage: medic ${USAGE}\n`);
        return 2;
      }
      let deps: DocsDeps | undefined;
      try {
        deps = await buildDeps(io);
        if (action === 'search') {
          const text = rest.length > 0 ? rest.join(' ') : await readStdin(io);
          if (text.trim() === '') {
            io.stderr.write('docs search: give the error text as arguments or on stdin\n');
            return 2;
          }
          return await search(deps, text, io);
        }
        const dir = rest[0] ?? deps.defaultDir;
        if (dir === undefined) {
          io.stderr.write(`docs ingest: name a directory, or set MEDIC_DOCS_DIR\n`);
          return 2;
        }
        return await ingest(deps, dir, io);
      } catch (error) {
        io.stderr.write(`docs ${action}: ${describeError(error)}\n`);
        return 1;
      } finally {
        await deps?.close();
      }
    },
  };
}
