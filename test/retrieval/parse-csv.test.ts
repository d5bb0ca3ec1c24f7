import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../bench/loghub.js';

describe('the benchmark CSV reader', () => {
  it('reads quoted fields with commas, doubled quotes, newlines and CRLF line ends', () => {
    const text = 'LineId,Content,EventTemplate\r\n1,"acquire lock=1, tag=""View Lock""","acquire lock=<*>, tag=""<*>"""\r\n2,"two\nlines",plain\n';
    expect(parseCsv(text)).toEqual([
      ['LineId', 'Content', 'EventTemplate'],
      ['1', 'acquire lock=1, tag="View Lock"', 'acquire lock=<*>, tag="<*>"'],
      ['2', 'two\nlines', 'plain'],
    ]);
  });

  it('keeps a last row without a line end and empty fields', () => {
    expect(parseCsv('a,,c\n"",x,')).toEqual([
      ['a', '', 'c'],
      ['', 'x', ''],
    ]);
  });
});
