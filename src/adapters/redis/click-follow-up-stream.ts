import { randomUUID } from 'node:crypto';
import type { RedisClient } from './connect.js';
import { z } from 'zod';
import { asMedicError } from '../../domain/errors.js';
import type { ClickFollowUp, ClickFollowUps } from '../../ports/click-follow-ups.js';

const GROUP = 'answerers';
const ClickEntry = z.object({
  actionId: z.string().min(1).max(255),
  value: z.string().max(2_000),
  user: z.object({ id: z.string().min(1).max(64), name: z.string().max(255).optional() }),
  channel: z.string().min(1).max(64).optional(),
  at: z.number(),
  replayKeys: z.array(z.string().min(1).max(1_000)).max(4).optional(),
});

function streamKey(prefix: string): string {
  return `${prefix}slack:click-follow-ups`;
}

/**
 * The web role's side: one XADD per acked click, nothing else on its event loop. The stream is
 * capped (approximately) so a web role whose workers are all down cannot fill Redis.
 */
export function createClickFollowUpStream(redis: RedisClient, prefix: string, options: { maxLength?: number } = {}): ClickFollowUps {
  const key = streamKey(prefix);
  const maxLength = String(options.maxLength ?? 100_000);
  return {
    async enqueue(click) {
      await redis.xadd(key, 'MAXLEN', '~', maxLength, '*', 'click', JSON.stringify(click));
    },
  };
}

export interface ClickAnswerer {
  close(): Promise<void>;
}

type Entries = [id: string, fields: string[]][];

/**
 * A worker's side: reads clicks through a consumer group (each click answered by one worker),
 * acknowledges each once answered, and takes over clicks a dead worker left pending for `idleMs`
 * (at least once: the use-cases behind a click are idempotent, so a retaken Approve enqueues no
 * second fix; its replay keys, claimed under the entry's id, admit the takeover). A malformed entry is logged and dropped, never retried forever.
 */
export async function startClickAnswerer(
  redis: RedisClient,
  prefix: string,
  answer: (click: ClickFollowUp) => Promise<void>,
  options: { logger: { warn(message: string): void }; batch?: number; blockMs?: number; idleMs?: number },
): Promise<ClickAnswerer> {
  const key = streamKey(prefix);
  const consumer = `answerer-${randomUUID().slice(0, 8)}`;
  const batch = options.batch ?? 50;
  const idleMs = options.idleMs ?? 30_000;
  try {
    await redis.xgroup('CREATE', key, GROUP, '0', 'MKSTREAM');
  } catch (error) {
    if (!String(error).includes('BUSYGROUP')) throw error;
  }
  // Blocking reads hold their connection: a dedicated one keeps the shared client free.
  const reader = redis.duplicate();
  let stopped = false;
  const handle = async (entries: Entries) => {
    await Promise.all(entries.map(async ([id, fields]) => {
      const raw = fields[fields.indexOf('click') + 1];
      let click: ClickFollowUp | undefined;
      try {
        click = ClickEntry.parse(JSON.parse(raw ?? ''));
      } catch {
        options.logger.warn(`Dropped a malformed click follow-up ${id}`);
      }
      // The entry id travels with the click: a takeover of this entry is the same delivery.
      if (click) await answer({ ...click, deliveryId: `click:${id}` });
      await redis.multi().xack(key, GROUP, id).xdel(key, id).exec();
    }));
  };
  const loop = async () => {
    let sinceClaim = Number.POSITIVE_INFINITY;
    while (!stopped) {
      try {
        if (Date.now() - sinceClaim > idleMs || sinceClaim === Number.POSITIVE_INFINITY) {
          sinceClaim = Date.now();
          const claimed = (await reader.xautoclaim(key, GROUP, consumer, idleMs, '0-0', 'COUNT', batch)) as [string, Entries];
          if (claimed[1].length > 0) await handle(claimed[1].filter((e) => Array.isArray(e[1])));
        }
        const read = (await reader.xreadgroup('GROUP', GROUP, consumer, 'COUNT', batch, 'BLOCK', options.blockMs ?? 1_000, 'STREAMS', key, '>')) as [string, Entries][] | null;
        if (read?.[0]) await handle(read[0][1]);
      } catch (error) {
        if (stopped) break;
        options.logger.warn(`Could not read click follow-ups: ${asMedicError(error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  const running = loop();
  return {
    async close() {
      stopped = true;
      reader.disconnect();
      await running;
    },
  };
}
