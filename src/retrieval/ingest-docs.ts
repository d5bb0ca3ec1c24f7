import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { shortHash } from '../domain/hash.js';
import { upsertDocs, type IndexedDoc, type RetrievalDeps } from './indexed-doc.js';
import { splitMarkdownSections } from './markdown-sections.js';

export interface IngestOptions {
  dir: string;
  /** Payload source shared by every ingested section; re-ingest prunes only within it. */
  source?: string;
}

export interface IngestReport {
  files: number;
  sections: number;
  added: number;
  unchanged: number;
  removed: number;
  /** True when the store was rebuilt for a new embedder (so everything was re-embedded). */
  rebuilt: boolean;
}

export const DOCS_SOURCE = 'docs';
const MARKDOWN = /\.(md|markdown)$/i;

async function listMarkdown(dir: string): Promise<string[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new MedicError(ErrorCode.ValidationFailed, `The docs directory ${dir} does not exist or is not a directory; pass an existing directory or set MEDIC_DOCS_DIR.`);
  }
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && MARKDOWN.test(e.name) && !/^readme\./i.test(e.name)) // a README describes the folder, not an error family
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Reads every Markdown file under `dir` into one document per `##` section, with content-hash ids. */
export async function readDocs(dir: string, source = DOCS_SOURCE): Promise<{ files: number; docs: IndexedDoc[] }> {
  const files = await listMarkdown(dir);
  const docs = new Map<string, IndexedDoc>();
  for (const file of files) {
    const path = relative(dir, file).split(sep).join('/');
    const fallbackTitle = basename(file).replace(MARKDOWN, '');
    for (const section of splitMarkdownSections(await readFile(file, 'utf8'), fallbackTitle)) {
      const doc = {
        title: `${section.title} — ${section.heading}`,
        body: section.body,
        source,
        path,
        ...(section.service === undefined ? {} : { service: section.service }),
        ...(section.errorCode === undefined ? {} : { errorCode: section.errorCode }),
      };
      // The id is a hash of everything stored, so an edit is a new id and an unchanged section is skipped.
      const id = `doc-${shortHash(JSON.stringify([doc.path, doc.title, doc.body, doc.service, doc.errorCode]))}`;
      docs.set(id, { id, ...doc });
    }
  }
  return { files: files.length, docs: [...docs.values()] };
}

/**
 * Brings the store in line with the Markdown under `dir`: new or edited sections are embedded and
 * upserted, unchanged ones are left alone, sections that disappeared are deleted. Idempotent.
 * New documents go in before stale ones go out, so a concurrent query never sees a gap.
 */
export async function ingestDocs(deps: RetrievalDeps, options: IngestOptions): Promise<IngestReport> {
  const source = options.source ?? DOCS_SOURCE;
  const { files, docs } = await readDocs(options.dir, source);
  if (docs.length === 0) {
    // Refuse rather than prune everything: an empty or mistyped directory is far likelier than intent.
    throw new MedicError(ErrorCode.ValidationFailed, `No Markdown documents with content under ${options.dir}; nothing was changed. Check the directory.`);
  }
  const rebuilt = await deps.store.ensure(deps.embedder.id, deps.embedder.dimension);
  const stored = new Set(await deps.store.idsBySource(source));
  const wanted = new Set(docs.map((d) => d.id));
  const fresh = docs.filter((d) => !stored.has(d.id));
  await upsertDocs(deps, fresh);
  const stale = [...stored].filter((id) => !wanted.has(id));
  if (stale.length > 0) await deps.store.delete(stale);
  return { files, sections: docs.length, added: fresh.length, unchanged: docs.length - fresh.length, removed: stale.length, rebuilt };
}
