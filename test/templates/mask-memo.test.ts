import { describe, expect, it } from 'vitest';
import { createMaskMemo } from '../../src/domain/templates/mask-memo.js';
import { defaultMaskLimits, maskMessage } from '../../src/domain/templates/mask-message.js';

describe('createMaskMemo', () => {
  it('gives every message the key masking it gives, through repeats, shapes, forgetting and long messages', () => {
    let seed = 21;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const shapes = [
      (n: number) => `Received block blk_${n} of size ${n * 7} from /10.250.${n % 256}.${n % 97}:50010`,
      (n: number) => `session 0x${n.toString(16)} closed after ${n % 60}s`,
      (n: number) => `user${n % 5} logged in from host-${n % 3}`,
      (n: number) => `Worker ${n % 12} Started`,
      (n: number) => `x=${n} y=${n % 2 === 0 ? 'true' : 'false'} path=/var/${n % 4}/log ${'pad '.repeat(n % 3)}`,
      () => 'connection reset by peer',
      () => '',
    ];
    const memos = [createMaskMemo(defaultMaskLimits), createMaskMemo(defaultMaskLimits, 3, 40)];
    for (let i = 0; i < 5_000; i += 1) {
      const message = (shapes[random(shapes.length)] as (n: number) => string)(random(i < 2_500 ? 50 : 100_000));
      const expected = maskMessage(message).join(' ');
      for (const memo of memos) expect(memo.keyOf(message), message).toBe(expected);
    }
  });
});
