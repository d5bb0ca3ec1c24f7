import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { stormSettingsFrom } from '../../src/config/sections/storm.js';
import { decideFamily, isOverflowFingerprint, isQuiet, openRuleFor, overflowFingerprint, parseOpenRules, presentOverflowTitle, quietMinutes } from '../../src/domain/storm-policy.js';

const base = { rule: { minEvents: 3, windowS: 60 }, openedThisHour: 0, openedForServiceThisHour: 0, maxNewPerHour: 50, maxNewPerServiceHour: 20 };

describe('the storm policy', () => {
  it('parses per-service opening rules', () => {
    expect(parseOpenRules('checkout=5/120, payments=3/60')).toEqual({ rules: { checkout: { minEvents: 5, windowS: 120 }, payments: { minEvents: 3, windowS: 60 } }, problems: [] });
    expect(parseOpenRules('')).toEqual({ rules: {}, problems: [] });
  });

  it('names every malformed rule', () => {
    const { problems } = parseOpenRules('checkout=5,payments=0/60,=3/60,search=2/60,search=4/10');
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/"checkout=5"/);
    expect(problems.join('\n')).toMatch(/search" has two rules/);
  });

  it('falls back to the global rule for a service without one', () => {
    const settings = { open: { minEvents: 1, windowS: 300 }, rules: { checkout: { minEvents: 5, windowS: 120 } } };
    expect(openRuleFor('checkout', settings)).toEqual({ minEvents: 5, windowS: 120 });
    expect(openRuleFor('search', settings)).toEqual({ minEvents: 1, windowS: 300 });
  });

  it('holds a family below its rule, opens at the Nth event, overflows past either cap', () => {
    expect(decideFamily({ ...base, pending: 2 })).toBe('hold');
    expect(decideFamily({ ...base, pending: 3 })).toBe('open');
    expect(decideFamily({ ...base, pending: 3, openedThisHour: 50 })).toBe('overflow');
    expect(decideFamily({ ...base, pending: 3, openedForServiceThisHour: 20 })).toBe('overflow');
    expect(decideFamily({ ...base, pending: 2, openedThisHour: 50 })).toBe('hold');
  });

  it('names the overflow incident by its hour and counts the suppressed families', () => {
    expect(overflowFingerprint(493_000)).toBe('overflow:493000');
    expect(isOverflowFingerprint('overflow:493000')).toBe(true);
    expect(isOverflowFingerprint('a1b2c3')).toBe(false);
    expect(presentOverflowTitle(1)).toMatch(/^Storm overflow: 1 event family suppressed/);
    expect(presentOverflowTitle(7)).toMatch(/7 event families suppressed/);
  });

  it('measures the quiet period on the ingest clock', () => {
    expect(isQuiet(0, 3_599_999, 3600)).toBe(false);
    expect(isQuiet(0, 3_600_000, 3600)).toBe(true);
    expect(quietMinutes(0, 3_659_000)).toBe(60);
    expect(quietMinutes(10, 0)).toBe(0);
  });
});

describe('the storm configuration', () => {
  it('has defaults for every variable', () => {
    expect(stormSettingsFrom(loadConfig({}))).toEqual({
      open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 20, cardRefreshS: 30, quietPeriodS: 3600,
    });
  });

  it('reads the variables and lists every bad one', () => {
    const config = loadConfig({ MEDIC_OPEN_RULES: 'checkout=5/120', MEDIC_OPEN_MIN_EVENTS: '2', MEDIC_CARD_REFRESH_S: '10' });
    expect(stormSettingsFrom(config)).toMatchObject({ open: { minEvents: 2, windowS: 300 }, rules: { checkout: { minEvents: 5, windowS: 120 } }, cardRefreshS: 10 });
    expect(() => loadConfig({ MEDIC_OPEN_RULES: 'checkout=five/120', MEDIC_MAX_NEW_INCIDENTS_PER_HOUR: '0' })).toThrow(/MEDIC_OPEN_RULES: "checkout=five\/120"[\s\S]*MEDIC_MAX_NEW_INCIDENTS_PER_HOUR/);
  });
});
