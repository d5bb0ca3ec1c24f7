import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { MaskLimits } from '../domain/templates/mask-message.js';
import { createMaskMemo } from '../domain/templates/mask-memo.js';
import { decodeBlock, splitLines } from './read-lines.js';

/**
 * Masking is most of the miner's work and needs no shared state, so a long input is masked on
 * worker threads while the main thread mines, in order. A batch goes out as one block of text
 * (whole lines) and comes back coded against a table of masked keys that each worker shares with
 * the main thread: the keys it had not sent before, then one table index per line. Messages of
 * one event mask to one key, so the table stays small, little text crosses threads, and the main
 * thread files every line of a key under the same string, whose hash is computed once.
 */
export interface MaskPool {
  /** Worker threads. */
  readonly size: number;
  /**
   * The masked keys of the lines of `block` (see `readLineBlocks`), in order: `maskMessage(line).join(' ')`
   * each. Bytes that fill their own buffer are handed over to a worker: the caller must not use them after.
   */
  keys(block: string | Uint8Array): Promise<string[]>;
  close(): Promise<void>;
}

const ROLE = 'medic-mask-worker';
/** Keys a worker's table holds before it starts afresh (checked between batches): bounds memory on inputs of endless shapes. */
const MAX_TABLE_KEYS = 1 << 16;
interface Request {
  id: number;
  /** Text, or UTF-8 bytes decoded here: decoding moves off the main thread with the masking. */
  block: string | Uint8Array;
}

interface Reply {
  id: number;
  /** The table was cleared before this batch. */
  reset?: boolean;
  /** Keys new to the table, in table order, joined by newlines (keys never hold whitespace). */
  fresh?: string;
  freshCount?: number;
  /** The table index of each line's key. */
  order?: Uint32Array;
  error?: string;
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE) serveMasking((workerData as { limits: MaskLimits }).limits);

function serveMasking(limits: MaskLimits): void {
  const table = new Map<string, number>();
  // Lines that repeat, word for word or but for their numbers, are masked once (see mask-memo.ts).
  const memo = createMaskMemo(limits);
  // After a failed batch the main thread's copy of the table is behind: start both afresh.
  let stale = false;
  parentPort?.on('message', ({ id, block }: Request) => {
    try {
      const reset = stale || table.size > MAX_TABLE_KEYS;
      if (reset) table.clear();
      stale = false;
      const lines = splitLines(decodeBlock(block));
      const order = new Uint32Array(lines.length);
      const fresh: string[] = [];
      for (let i = 0; i < lines.length; i += 1) {
        const key = memo.keyOf(lines[i] as string);
        let index = table.get(key);
        if (index === undefined) {
          index = table.size;
          table.set(key, index);
          fresh.push(key);
        }
        order[i] = index;
      }
      const reply: Reply = { id, reset, fresh: fresh.join('\n'), freshCount: fresh.length, order };
      parentPort?.postMessage(reply, [order.buffer]);
    } catch (error) {
      stale = true;
      parentPort?.postMessage({ id, error: (error as Error).message } satisfies Reply);
    }
  });
}

/**
 * Workers run this very module, so they exist only where it is compiled JavaScript (the shipped
 * `dist/`); run from TypeScript sources, or on one core, masking stays on the main thread.
 */
export function startMaskPool(limits: MaskLimits, size = availableParallelism()): MaskPool | undefined {
  const self = new URL(import.meta.url);
  if (!self.pathname.endsWith('.js') || size < 1) return undefined;
  const workers = Array.from({ length: size }, () => new Worker(self, { workerData: { role: ROLE, limits } }));
  const waiting = new Map<number, { resolve: (keys: string[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const fail = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  for (const worker of workers) {
    // A worker's replies arrive in the order it sent them, so its table is rebuilt here in step.
    const table: string[] = [];
    worker.on('message', ({ id, reset, fresh, freshCount, order, error }: Reply) => {
      const pending = waiting.get(id);
      waiting.delete(id);
      if (order === undefined) {
        pending?.reject(new Error(`masking failed: ${error ?? 'no reply'}`));
        return;
      }
      if (reset) table.length = 0;
      if (freshCount) for (const key of (fresh as string).split('\n')) table.push(key);
      const keys = new Array<string>(order.length);
      for (let i = 0; i < order.length; i += 1) keys[i] = table[order[i] as number] as string;
      pending?.resolve(keys);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (waiting.size > 0) fail(new Error(`a masking worker exited (code ${code}) with batches in flight`));
    });
  }
  return {
    size: workers.length,
    keys(block) {
      const id = nextId++;
      const worker = workers[id % workers.length] as Worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (typeof block === 'string') worker.postMessage({ id, block } satisfies Request);
        else {
          // Memory of its own moves to the worker; a view into shared memory is copied first.
          const bytes = block.byteOffset === 0 && block.byteLength === block.buffer.byteLength ? block : new Uint8Array(block);
          worker.postMessage({ id, block: bytes } satisfies Request, [bytes.buffer as ArrayBuffer]);
        }
      });
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
