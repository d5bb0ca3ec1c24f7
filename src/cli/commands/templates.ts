import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { defaultMinerOptions } from '../../domain/templates/miner-options.js';
import { createTemplateMiner, type MinedTemplate } from '../../domain/templates/template-miner.js';
import type { CliCommand } from '../command.js';
import { startMaskPool, type MaskPool } from '../parallel-mask.js';
import { readArgs } from '../read-args.js';
import { decodeBlock, readLineBlocks, splitLines } from '../read-lines.js';
import { jsonSafe } from '../terminal-output.js';

/** Bytes per read, and so per batch of lines: small enough that the first batch comes back from a worker soon. */
const READ_BYTES = 1 << 18;
const WRITE_BYTES = 1 << 20;
const USAGE = 'templates FILE|-';
/** Lines mined on the main thread alone before masking moves to worker threads: short inputs never pay for starting them. */
const PARALLEL_AFTER_LINES = 20_000;
/** A file at least this long (about that many lines of a hundred bytes) starts its worker threads at once, booting while the first reads come in. */
const PARALLEL_FILE_BYTES = 2_000_000;
/** Batches (one per read) being masked ahead of the miner, per worker. */
const AHEAD_PER_WORKER = 2;

/**
 * `templates FILE` (`-` for standard input): one message per line in, one `{"group","template"}` per line out, in order.
 * Two passes over the ids held in memory, so every line shows its group's final template and the
 * id its group ended with (groups found to be one event late are merged).
 */
export const templatesCommand: CliCommand = {
  name: 'templates',
  usage: USAGE,
  summary: 'Group the messages of FILE (one per line) into templates; prints one JSON line per input line',
  async run(args, io) {
    const parsed = readArgs(args, io, templatesCommand, {});
    if (typeof parsed === 'number') return parsed;
    const [file, ...extra] = parsed.positionals;
    if (file === undefined || extra.length > 0) {
      io.stderr.write(`Usage: medic ${USAGE}\n`);
      return 2;
    }
    const checked = file === '-' ? undefined : await checkReadable(file);
    if (typeof checked === 'string') {
      io.stderr.write(`templates: ${checked}\n`);
      return 2;
    }

    const miner = createTemplateMiner(defaultMinerOptions);
    const ids: string[] = [];
    // Templates as last seen, for groups the miner has since evicted to stay within its memory cap.
    const lastTemplate = new Map<string, string>();
    let last: MinedTemplate | undefined;
    const record = (mined: MinedTemplate) => {
      ids.push(mined.groupId);
      // Runs of one group with one template are common: note the template once per run.
      if (mined.groupId !== last?.groupId || mined.template !== last.template) lastTemplate.set(mined.groupId, mined.template);
      last = mined;
    };
    const input = file === '-' ? io.stdin : createReadStream(file, { highWaterMark: READ_BYTES });
    let pool: MaskPool | undefined;
    try {
      // Masked batches come back in the order they were sent, so the miner sees lines in input order.
      const ahead: Promise<string[]>[] = [];
      let seen = 0;
      let tried = (checked?.size ?? 0) >= PARALLEL_FILE_BYTES;
      if (tried) pool = startMaskPool(defaultMinerOptions);
      for await (const block of readLineBlocks(input)) {
        if (!tried && seen >= PARALLEL_AFTER_LINES) {
          tried = true;
          pool = startMaskPool(defaultMinerOptions);
        }
        if (!pool) {
          const lines = splitLines(decodeBlock(block));
          seen += lines.length;
          for (const line of lines) record(miner.add(line));
          continue;
        }
        const batch = pool.keys(block);
        batch.catch(() => undefined); // awaited below, in order; a failure surfaces there
        ahead.push(batch);
        while (ahead.length > pool.size * AHEAD_PER_WORKER) for (const key of await (ahead.shift() as Promise<string[]>)) record(miner.addMasked(key));
      }
      for (const batch of ahead) for (const key of await batch) record(miner.addMasked(key));
    } catch (error) {
      io.stderr.write(`templates: could not read ${file}: ${(error as Error).message}\n`);
      return 1;
    } finally {
      await pool?.close();
    }

    // Every line of a group prints the same JSON: serialise and encode it once per group, then
    // copy its bytes for each line into large buffers, written whole.
    const printed = new Map<string, Uint8Array>();
    let out = Buffer.allocUnsafe(WRITE_BYTES);
    let used = 0;
    let lastId: string | undefined;
    let json: Uint8Array = new Uint8Array(0);
    for (const id of ids) {
      if (id !== lastId) {
        lastId = id;
        let known = printed.get(id);
        if (known === undefined) {
          const group = miner.lookup(id) ?? { groupId: id, template: lastTemplate.get(id) ?? '' };
          known = Buffer.from(`${jsonSafe(JSON.stringify({ group: group.groupId, template: group.template }))}\n`);
          printed.set(id, known);
        }
        json = known;
      }
      if (used + json.length > out.length) {
        if (used > 0) await write(io.stdout, out.subarray(0, used));
        out = Buffer.allocUnsafe(Math.max(WRITE_BYTES, json.length));
        used = 0;
      }
      out.set(json, used);
      used += json.length;
    }
    if (used > 0) await write(io.stdout, out.subarray(0, used));
    return 0;
  },
};

/** The file's size, or what is wrong with it. */
async function checkReadable(file: string): Promise<string | { size: number }> {
  try {
    const info = await stat(file);
    return info.isDirectory() ? `${file} is a directory, not a file` : { size: info.size };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `no such file: ${file}`;
    return `cannot read ${file} (${code ?? (error as Error).message})`;
  }
}

async function write(stream: Writable, bytes: Uint8Array): Promise<void> {
  if (!stream.write(bytes)) await once(stream, 'drain');
}
