import { readFile } from 'node:fs/promises';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { parseGroupingRules, type GroupingRule } from '../domain/grouping-rules.js';

/** Reads the grouping rules at start; a missing file means "no rules", a bad one stops the boot listing every problem. */
export async function loadGroupingRules(path: string): Promise<GroupingRule[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new MedicError(ErrorCode.ConfigInvalid, `Cannot read the grouping rules ${path}: ${(error as Error).message}`);
  }
  return parseGroupingRules(text, path);
}
