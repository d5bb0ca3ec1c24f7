/**
 * Whether a stack frame's path (`/srv/shop/src/a.ts`, as deployed) names a repository file
 * (`src/a.ts`): one ends the other at a path separator. Pure.
 */
export function isFrameFile(framePath: string, repoPath: string): boolean {
  const a = framePath.replace(/\\/g, '/');
  const b = repoPath.replace(/\\/g, '/');
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}
