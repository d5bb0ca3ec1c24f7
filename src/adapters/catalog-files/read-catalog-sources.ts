import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogProblem } from '../../domain/catalog/catalog.js';
import { parseBackstageEntities } from '../../domain/catalog/parse-backstage-entities.js';
import { parseCatalogFile, type CatalogPart } from '../../domain/catalog/parse-catalog-file.js';
import { sha256 } from '../../domain/hash.js';

export interface CatalogSources {
  /** Medic's catalog file. */
  file?: string;
  /** A directory searched for Backstage `catalog-info.yaml` files. */
  dir?: string;
}

export interface ReadSources {
  parts: CatalogPart[];
  problems: CatalogProblem[];
  /** A hash of every file read (name and content): unchanged files, unchanged hash. */
  fingerprint: string;
}

const MAX_DEPTH = 6;
const SKIP = new Set(['.git', 'node_modules']);
const isEntityFile = (name: string) => name === 'catalog-info.yaml' || name === 'catalog-info.yml' || name.endsWith('.catalog-info.yaml');

async function entityFiles(dir: string, depth = 0): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && !SKIP.has(entry.name) && depth < MAX_DEPTH) found.push(...(await entityFiles(join(dir, entry.name), depth + 1)));
    else if (entry.isFile() && isEntityFile(entry.name)) found.push(join(dir, entry.name));
  }
  return found;
}

/** Reads Medic's catalog file and the Backstage entity files, listing every problem (a missing file is one). */
export async function readCatalogSources(sources: CatalogSources): Promise<ReadSources> {
  const parts: CatalogPart[] = [];
  const problems: CatalogProblem[] = [];
  const seen: string[] = [];
  const read = async (path: string): Promise<string | undefined> => {
    try {
      const text = await readFile(path, 'utf8');
      seen.push(`${path}\n${text}`);
      return text;
    } catch (error) {
      problems.push({ where: path, message: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      seen.push(`${path}\n(unreadable)`);
      return undefined;
    }
  };
  if (sources.file) {
    const text = await read(sources.file);
    if (text !== undefined) {
      const parsed = parseCatalogFile(text, sources.file);
      problems.push(...parsed.problems);
      if (parsed.part) parts.push(parsed.part);
    }
  }
  if (sources.dir) {
    const dir = sources.dir;
    const files = await entityFiles(dir).catch((error: unknown) => {
      problems.push({ where: dir, message: `cannot be listed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      return [];
    });
    if (files.length === 0 && problems.every((p) => p.where !== dir)) problems.push({ where: dir, message: 'holds no catalog-info.yaml file' });
    for (const path of files) {
      const text = await read(path);
      if (text === undefined) continue;
      const parsed = parseBackstageEntities(text, path);
      problems.push(...parsed.problems);
      if (parsed.part) parts.push(parsed.part);
    }
  }
  return { parts, problems, fingerprint: sha256(seen.join('\n\0')) };
}
