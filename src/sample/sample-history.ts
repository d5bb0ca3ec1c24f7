import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { z } from 'zod';
import { ErrorCode, MedicError } from '../domain/errors.js';

/**
 * The sample repository's history manifest (data/sample-service.history.json): commits oldest
 * first, each writing its files with their content from the sample tree, optionally rewritten by
 * `edits` into the earlier version that commit had. Dates are relative (`daysAgo`) to the
 * manifest's `anchor` — the moment the sample logs begin — so the commits that introduced the
 * sample's bugs always precede the errors they cause; without an anchor, to the time of seeding.
 */
const RelativePath = z
  .string()
  .min(1)
  .max(300)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && posix.normalize(p) === p && !p.split('/').includes('..'), {
    message: 'must be a normalized path inside the sample tree',
  });

const Edit = z.object({ find: z.string().min(1), replace: z.string() });

const HistoryCommit = z
  .object({
    message: z.string().min(1).max(2_000),
    author: z.string().regex(/^[^<>\n]+ <[^<>\s]+@[^<>\s]+>$/, 'must read "Name <email>"'),
    daysAgo: z.number().min(0).max(3_650).optional(),
    date: z.iso.datetime({ offset: true }).optional(),
    files: z.array(RelativePath).min(1),
    edits: z.record(RelativePath, z.array(Edit)).optional(),
  })
  .refine((c) => (c.daysAgo === undefined) !== (c.date === undefined), { message: 'give exactly one of daysAgo and date' })
  .refine((c) => Object.keys(c.edits ?? {}).every((f) => c.files.includes(f)), { message: 'edits may only name files of the same commit' });
export type HistoryCommit = z.infer<typeof HistoryCommit>;

const Commits = z.array(HistoryCommit).min(1).max(500);
export const SampleHistory = z.union([
  z.object({ commits: Commits, anchor: z.iso.datetime({ offset: true }).optional() }).loose(),
  Commits.transform((commits) => ({ commits, anchor: undefined })),
]);
export type SampleHistory = z.infer<typeof SampleHistory>;

export async function loadSampleHistory(historyFile: string): Promise<SampleHistory> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(historyFile, 'utf8'));
  } catch (err) {
    throw new MedicError(ErrorCode.ValidationFailed, `Cannot read the sample history ${historyFile}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = SampleHistory.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MedicError(ErrorCode.ValidationFailed, `Sample history ${historyFile} is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown'}`);
  }
  return parsed.data;
}

export function commitDate(commit: HistoryCommit, now: Date): Date {
  return commit.date !== undefined ? new Date(commit.date) : new Date(now.getTime() - Math.round((commit.daysAgo ?? 0) * 86_400_000));
}

/** The content a commit writes: the final file, rewritten by that commit's edits. */
export function contentAt(commit: HistoryCommit, file: string, finalContent: string): string {
  let content = finalContent;
  for (const edit of commit.edits?.[file] ?? []) {
    const at = content.indexOf(edit.find);
    if (at === -1 || content.indexOf(edit.find, at + 1) !== -1) {
      throw new MedicError(
        ErrorCode.ValidationFailed,
        `Sample history commit "${commit.message.split('\n')[0] ?? ''}": an edit of ${file} must match exactly once; update the manifest to the current file`,
      );
    }
    content = content.slice(0, at) + edit.replace + content.slice(at + edit.find.length);
  }
  return content;
}
