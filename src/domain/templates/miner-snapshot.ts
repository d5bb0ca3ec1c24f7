import { z } from 'zod';

export const MinerSnapshot = z.object({
  version: z.literal(1),
  /** Sequence number of the next group; orders ties the same way after a restore. */
  nextSeq: z.number().int().nonnegative(),
  /** Least recently used first. */
  groups: z.array(
    z.object({
      id: z.string().min(1),
      seq: z.number().int().nonnegative(),
      template: z.array(z.string()),
      count: z.number().int().nonnegative(),
    }),
  ),
  /** Oldest first: [retired id, survivor id]. */
  aliases: z.array(z.tuple([z.string(), z.string()])),
});
export type MinerSnapshot = z.infer<typeof MinerSnapshot>;
