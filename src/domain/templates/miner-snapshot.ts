import { z } from 'zod';

export const MinerSnapshot = z.object({
  /** 1: written before masking generations were recorded, every template is generation 1. */
  version: z.union([z.literal(1), z.literal(2)]),
  /** Sequence number of the next group; orders ties the same way after a restore. */
  nextSeq: z.number().int().nonnegative(),
  /** Least recently used first. */
  groups: z.array(
    z.object({
      id: z.string().min(1),
      seq: z.number().int().nonnegative(),
      template: z.array(z.string()),
      count: z.number().int().nonnegative(),
      /** The masking generation that made the template (see mask-message.ts); absent: the current one. */
      generation: z.number().int().min(1).optional(),
    }),
  ),
  /** Oldest first: [retired id, survivor id]. */
  aliases: z.array(z.tuple([z.string(), z.string()])),
});
export type MinerSnapshot = z.infer<typeof MinerSnapshot>;
