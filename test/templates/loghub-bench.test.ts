import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../bench/loghub.js';
import { groupingAccuracy } from '../../bench/templates.bench.js';

describe('template benchmark helpers', () => {
  it('parses quoted CSV fields with commas, doubled quotes, newlines and CRLF', () => {
    const csv = 'LineId,Content,EventId\r\n1,"a, b ""quoted""",E1\r\n2,"two\nlines",E2\n3,plain,E3';
    expect(parseCsv(csv)).toEqual([
      ['LineId', 'Content', 'EventId'],
      ['1', 'a, b "quoted"', 'E1'],
      ['2', 'two\nlines', 'E2'],
      ['3', 'plain', 'E3'],
    ]);
  });

  it('counts a message as right only when its predicted group is exactly its true group', () => {
    expect(groupingAccuracy(['A', 'A', 'B'], ['x', 'x', 'y'])).toBe(1);
    // The merged group is wrong for all three; the split one for both of its halves.
    expect(groupingAccuracy(['A', 'A', 'B'], ['x', 'x', 'x'])).toBe(0);
    expect(groupingAccuracy(['A', 'A', 'B'], ['x', 'z', 'y'])).toBeCloseTo(1 / 3);
  });
});
