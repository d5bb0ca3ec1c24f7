import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { maskMessage, type MaskLimits } from '../domain/templates/mask-message.js';

/**
 * Masking is most of the miner's work and needs no shared state, so a long input is masked on
 * worker threads while the main thread mines, in order. Each batch comes back as one string —
 * the masked key of each line, one per line (tokens never hold whitespace) — which crosses
 * threads far cheaper than arrays of tokens.
 */
export interface MaskPool {
  /** Worker threads. */
  readonly size: number;
  /** The masked keys of `lines`, in order: `maskMessage(line).join(' ')` each. */
  keys(lines: string[]): Promise<string[]>;
  close(): Promise<void>;
}

const ROLE = 'medic-mask-worker';

interface Request {
  id: number;
  lines: string[];
}

interface Reply {
  id: number;
  keys?: string;
  error?: string;
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE) serveMasking((workerData as { limits: MaskLimits }).limits);

function serveMasking(limits: MaskLimits): void {
  parentPort?.on('message', ({ id, lines }: Request) => {
    try {
      const keys = lines.map((line) => maskMessage(line, limits).join(' ')).join('\n');
      parentPort?.postMessage({ id, keys } satisfies Reply);
    } catch (error) {
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
    worker.on('message', ({ id, keys, error }: Reply) => {
      const pending = waiting.get(id);
      waiting.delete(id);
      if (keys !== undefined) pending?.resolve(keys.split('\n'));
      else pending?.reject(new Error(`masking failed: ${error ?? 'no reply'}`));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (waiting.size > 0) fail(new Error(`a masking worker exited (code ${code}) with batches in flight`));
    });
  }
  return {
    size: workers.length,
    keys(lines) {
      const id = nextId++;
      const worker = workers[id % workers.length] as Worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, lines } satisfies Request);
      });
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
