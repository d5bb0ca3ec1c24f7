/**
 * The one contract every LogSource keeps, run against each implementation (files, Splunk over its
 * loopback). A fixture appends records the way that source's world would receive them.
 */
import { describe, expect, it } from 'vitest';
import { ErrorEvent } from '../../src/domain/event.js';
import type { LogSource } from '../../src/ports/log-source.js';

export interface ContractRecord {
  time: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  service: string;
  message: string;
  txn?: string;
  session?: string;
  /** Stack frames, one per line, after an `Error: <message>` line. */
  frames?: string[];
}

export interface LogSourceFixture {
  source: LogSource;
  append(records: ContractRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** Times the records carry; fixtures keep their clocks near it. */
export const CONTRACT_BASE_MS = Date.UTC(2027, 0, 15, 7, 50, 0);
export const at = (offsetS: number) => new Date(CONTRACT_BASE_MS + offsetS * 1000).toISOString();

const FRAMES = ['at charge (src/payment/charge.ts:42:11)', 'at checkout (src/checkout.ts:17:3)'];

export function describeLogSourceContract(name: string, setup: () => Promise<LogSourceFixture>): void {
  describe(`LogSource contract: ${name}`, () => {
    async function withFixture(body: (fx: LogSourceFixture) => Promise<void>): Promise<void> {
      const fx = await setup();
      try {
        await body(fx);
      } finally {
        await fx.close();
      }
    }

    it("finds a deploy marker: the service's earliest line since a time containing the text, any case", () => withFixture(async (fx) => {
      await fx.append([
        { time: at(-30), level: 'INFO', service: 'checkout', message: 'Deployed version 41' },
        { time: at(5), level: 'INFO', service: 'ledger', message: 'deployed version 42' },
        { time: at(10), level: 'INFO', service: 'checkout', message: 'DEPLOYED VERSION 42 on pod a' },
        { time: at(20), level: 'INFO', service: 'checkout', message: 'deployed version 43' },
      ]);
      const hit = await fx.source.findLine!('checkout', 'deployed version', at(0));
      expect(hit?.at).toBe(at(10));
      expect(hit?.line).toContain('DEPLOYED VERSION 42 on pod a');
      expect(await fx.source.findLine!('checkout', 'deployed version', at(30))).toBeUndefined();
      expect(await fx.source.findLine!('payments', 'deployed version', at(0))).toBeUndefined();
    }));

    it('hands over errors only, normalized, with the stack trace kept whole', () => withFixture(async (fx) => {
      await fx.append([
        { time: at(0), level: 'ERROR', service: 'checkout', message: 'Payment declined', txn: 'T-1', session: 'S-1', frames: FRAMES },
        { time: at(1), level: 'INFO', service: 'checkout', message: 'Retrying payment', txn: 'T-1' },
        { time: at(2), level: 'ERROR', service: 'ledger', message: 'Ledger write timed out', txn: 'T-2' },
      ]);
      const { events } = await fx.source.poll(undefined);
      expect(events.map((e) => e.message).sort()).toEqual(['Ledger write timed out', 'Payment declined']);
      for (const event of events) expect(ErrorEvent.parse(event)).toEqual(event);
      expect(new Set(events.map((e) => e.id)).size).toBe(2);
      const payment = events.find((e) => e.message === 'Payment declined')!;
      expect(payment).toMatchObject({ service: 'checkout', severity: 'error', correlationIds: { txn_id: 'T-1' }, sessionId: 'S-1', time: at(0) });
      expect(payment.raw.split('\n').map((l) => l.trim())).toEqual(expect.arrayContaining(FRAMES));
    }));

    it('resumes from its checkpoint without repeating, and replays an old checkpoint with the same ids', () => withFixture(async (fx) => {
      await fx.append([{ time: at(0), level: 'ERROR', service: 'checkout', message: 'First failure', txn: 'T-1' }]);
      const first = await fx.source.poll(undefined);
      await fx.append([{ time: at(5), level: 'ERROR', service: 'checkout', message: 'Second failure', txn: 'T-2' }]);
      const second = await fx.source.poll(first.checkpoint);
      expect(second.events.map((e) => e.message)).toEqual(['Second failure']);
      expect((await fx.source.poll(second.checkpoint)).events).toEqual([]);
      // A crash before the checkpoint was stored: the same events, with the same identities.
      const replay = await fx.source.poll(first.checkpoint);
      expect(replay.events.map((e) => e.id)).toEqual(second.events.map((e) => e.id));
    }));

    it('gives the log window of the transaction and session, sorted by time and capped', () => withFixture(async (fx) => {
      await fx.append([
        { time: at(-600), level: 'INFO', service: 'checkout', message: 'too early', txn: 'T-1', session: 'S-1' },
        { time: at(-30), level: 'INFO', service: 'checkout', message: 'cart loaded', txn: 'T-1', session: 'S-1' },
        { time: at(0), level: 'ERROR', service: 'checkout', message: 'Payment declined', txn: 'T-1', session: 'S-1', frames: FRAMES },
        { time: at(10), level: 'INFO', service: 'checkout', message: 'other session', txn: 'T-1', session: 'S-2' },
        { time: at(20), level: 'WARN', service: 'payments', message: 'gateway slow', txn: 'T-1' },
        { time: at(25), level: 'INFO', service: 'checkout', message: 'other transaction', txn: 'T-9', session: 'S-1' },
      ]);
      const { events } = await fx.source.poll(undefined);
      const event = events.find((e) => e.message === 'Payment declined')!;
      const window = await fx.source.window({ event, beforeMs: 300_000, afterMs: 300_000, limit: 50 });
      const texts = window.map((l) => l.message.split('\n')[0] ?? '');
      expect(texts).toHaveLength(3);
      expect(texts[0]).toContain('cart loaded');
      expect(texts[1]).toContain('Payment declined');
      expect(texts[2]).toContain('gateway slow');
      expect(window.map((l) => l.time)).toEqual([at(-30), at(0), at(20)]);
      expect(window[2]).toMatchObject({ level: 'WARN', service: 'payments', correlationIds: { txn_id: 'T-1' } });
      expect(await fx.source.window({ event, beforeMs: 300_000, afterMs: 300_000, limit: 1 })).toHaveLength(1);
    }));

    it('says it is healthy', () => withFixture(async (fx) => {
      const check = await fx.source.check();
      expect(check).toMatchObject({ name: 'log source', ok: true });
    }));
  });
}
