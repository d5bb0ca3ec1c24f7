import keySlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { cellOfService, cellPrefixes } from '../../src/domain/cells.js';
import { loadConfig } from '../../src/config/load-config.js';

describe('the cell layout', () => {
  it('is the prefix itself with one cell, so a deployment of one keyspace keeps its keys', () => {
    expect(cellPrefixes('{medic}:', 1)).toEqual(['{medic}:']);
    expect(cellPrefixes('medic:', 1)).toEqual(['medic:']);
    expect(cellOfService('shop', 1)).toBe(0);
  });

  it.each([2, 3, 6, 12])('puts %i cells in the middles of as many equal runs of the slot ring', (count) => {
    const prefixes = cellPrefixes('{medic}:', count);
    expect(new Set(prefixes).size).toBe(count);
    for (const [n, prefix] of prefixes.entries()) {
      expect(prefix).toMatch(new RegExp(`^\\{medic\\.${n}-\\d+\\}:$`));
      const middle = Math.round(((n + 0.5) * 16_384) / count);
      expect(Math.abs(keySlot(prefix) - middle)).toBeLessThanOrEqual(32);
    }
    // The same on every process: the layout is a function of the prefix and the count alone.
    expect(cellPrefixes('{medic}:', count)).toEqual(prefixes);
  });

  it.each(['{medic}:', '{a}:', '{medic-test-1f541dff}:', '{payments.prod}:'])('spreads cells evenly over masters holding equal slot runs, whatever the tag (%s)', (prefix) => {
    for (const [cells, masters] of [[3, 3], [6, 3], [12, 3], [12, 4], [6, 2]] as const) {
      const perMaster = new Array<number>(masters).fill(0);
      for (const cell of cellPrefixes(prefix, cells)) perMaster[Math.floor((keySlot(cell) * masters) / 16_384)]!++;
      expect([cells, masters, perMaster]).toEqual([cells, masters, new Array(masters).fill(cells / masters)]);
    }
  });

  it('refuses cells under a prefix without a hash tag, in the config and in the layout', () => {
    expect(() => cellPrefixes('medic:', 3)).toThrow(/hash-tagged prefix/);
    expect(() => loadConfig({ MEDIC_REDIS_PREFIX: 'medic:', MEDIC_REDIS_CELLS: '3' })).toThrow(/MEDIC_REDIS_PREFIX[\s\S]*\{medic\}:/);
    expect(() => loadConfig({ MEDIC_REDIS_CELLS: '0' })).toThrow(/MEDIC_REDIS_CELLS/);
    expect(() => loadConfig({ MEDIC_REDIS_CELLS: '65' })).toThrow(/MEDIC_REDIS_CELLS/);
    expect(loadConfig({ MEDIC_REDIS_CELLS: '4' }).MEDIC_REDIS_CELLS).toBe(4);
    expect(loadConfig({}).MEDIC_REDIS_CELLS).toBe(1);
  });

  it('gives each service one cell, the same in every process, spread over the cells', () => {
    const names = Array.from({ length: 3_000 }, (_, i) => `service-${i}`);
    const counts = [0, 0, 0, 0];
    for (const name of names) {
      const cell = cellOfService(name, 4);
      expect(cell).toBe(cellOfService(name, 4));
      counts[cell]!++;
    }
    for (const count of counts) expect(Math.abs(count - 750)).toBeLessThan(120);
  });
});
