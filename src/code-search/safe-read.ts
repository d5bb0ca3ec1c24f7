/**
 * Reading one repository file without leaving the repository: the path must be relative, free of
 * `..`, and resolve (through any symlink) inside the root; binary files are refused. Shared by the
 * directory repository and Medic's git clone.
 */
import { lstat, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ErrorCode, MedicError } from '../domain/errors.js';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Throws unless `file` is a plain repository-relative path (no `..`, not absolute, no NUL). */
export function assertRepoRelativePath(file: string): void {
  const refuse = (why: string) => new MedicError(ErrorCode.FixRefused, `Refused path "${file.slice(0, 200)}": ${why}.`);
  if (file.length === 0 || file.length > 512) throw refuse('empty or longer than 512 characters');
  if (file.includes('\0')) throw refuse('it contains a NUL byte');
  if (isAbsolute(file) || /^[A-Za-z]:/.test(file) || file.startsWith('\\') || file.startsWith('/')) throw refuse('absolute paths are not allowed');
  if (file.split(/[\\/]/).some((part) => part === '..')) throw refuse('".." segments are not allowed');
  if (file.split(/[\\/]/).some((part) => part === '.git')) throw refuse('the .git directory is not part of the repository');
}

/** True when the bytes look binary (a NUL in the first 8 KiB, as git decides). */
export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8_000).includes(0);
}

/**
 * Reads a file inside `root`; undefined when it does not exist. Refuses symlinks that resolve
 * outside the root, binary files and files over `maxBytes`.
 */
export async function readRepoFile(root: string, file: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<string | undefined> {
  assertRepoRelativePath(file);
  const full = join(root, file);
  const stat = await lstat(full).catch(() => undefined);
  if (!stat) return undefined;
  const realRoot = await realpath(root);
  const real = await realpath(full).catch(() => undefined);
  if (!real) return undefined;
  const inside = relative(realRoot, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new MedicError(ErrorCode.FixRefused, `Refused path "${file}": it is a symlink that points outside the repository.`);
  }
  const target = await lstat(real);
  if (!target.isFile()) return undefined;
  if (target.size > maxBytes) throw new MedicError(ErrorCode.FixRefused, `Refused path "${file}": ${target.size} bytes is over the ${maxBytes}-byte limit.`);
  const bytes = await readFile(real);
  if (isBinary(bytes)) throw new MedicError(ErrorCode.FixRefused, `Refused path "${file}": it is a binary file.`);
  return bytes.toString('utf8');
}
