/**
 * A lease holder's fencing number on one lock (the lock's key without Medic's prefix). A write that
 * carries it is checked in the same Redis step that makes it: admitted while no later holder (a
 * larger number) has written to that lock's resource, refused and audited after one has, so a
 * holder that paused past its lease and resumed cannot overwrite the later holder's work.
 */
export interface WriteFence {
  lock: string;
  fence: number;
}

/** How long a resource remembers the largest fence it admitted; the fence counter outlives it. */
export const ADMITTED_FENCE_TTL_MS = 30 * 86_400_000;
