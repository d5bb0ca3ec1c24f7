/**
 * Loads the versioned prompts (`prompts/<step>.md`, front matter with `version:`) and expands
 * `{{> partial}}` includes from `prompts/partials/`. The version stored with each result combines
 * the declared versions with a short content hash, so an edit that forgot to bump is still visible.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { shortHash } from '../domain/hash.js';
import { installDir } from '../install-dir.js';

export interface Prompt {
  step: string;
  /** e.g. `rca@3+a1b2c3d4`: declared version, then a hash of the expanded text. */
  version: string;
  system: string;
}

export type PromptSet = Record<'rca' | 'recommend' | 'fix', Prompt>;

export const DEFAULT_PROMPTS_DIR = join(installDir(), 'prompts');

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const INCLUDE = /\{\{>\s*([a-z0-9-]+)\s*\}\}/g;

function readVersioned(file: string): { version: string; body: string } {
  if (!existsSync(file)) throw new MedicError(ErrorCode.ConfigInvalid, `Prompt file ${file} is missing; restore it or set MEDIC_PROMPTS_DIR to a directory holding rca.md, recommend.md and fix.md.`);
  const text = readFileSync(file, 'utf8');
  const match = FRONT_MATTER.exec(text);
  const meta = match ? (parseYaml(match[1] ?? '') as { version?: unknown } | null) : null;
  const version = meta?.version;
  if (typeof version !== 'string' && typeof version !== 'number') {
    throw new MedicError(ErrorCode.ConfigInvalid, `Prompt file ${file} has no "version:" in its front matter; add one so results record which prompt produced them.`);
  }
  return { version: String(version), body: text.slice(match?.[0].length ?? 0).trim() };
}

export function loadPrompt(dir: string, step: string): Prompt {
  const main = readVersioned(join(dir, `${step}.md`));
  const partialVersions: string[] = [];
  const system = main.body.replace(INCLUDE, (_all, name: string) => {
    const partial = readVersioned(join(dir, 'partials', `${name}.md`));
    partialVersions.push(`${name}@${partial.version}`);
    return partial.body;
  });
  return { step, version: `${step}@${main.version}+${shortHash([system, ...partialVersions].join('\n')).slice(0, 8)}`, system };
}

export function loadPrompts(dir: string = DEFAULT_PROMPTS_DIR): PromptSet {
  return { rca: loadPrompt(dir, 'rca'), recommend: loadPrompt(dir, 'recommend'), fix: loadPrompt(dir, 'fix') };
}
