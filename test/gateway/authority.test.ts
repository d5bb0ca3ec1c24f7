import { describe, expect, it } from 'vitest';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';

describe('configured authority', () => {
  it('resolves approvers and elevated approvers (who are approvers too) from verified ids only', async () => {
    const authority = createConfiguredAuthority({ approvers: ['U1'], elevatedApprovers: ['U2'] });
    expect(await authority.resolve('U1')).toEqual({ approver: true, elevated: false, reader: true });
    expect(await authority.resolve('U2')).toEqual({ approver: true, elevated: true, reader: true });
    expect(await authority.resolve('U3')).toEqual({ approver: false, elevated: false, reader: false });
    expect(await authority.resolve('')).toEqual({ approver: false, elevated: false, reader: false });
  });

  it('resolves Slack user groups through the hook, caches them, and fails closed when it cannot', async () => {
    const clock = { now: 0 };
    let lookups = 0;
    let broken = false;
    const authority = createConfiguredAuthority({
      approvers: ['group:S-ONCALL'],
      elevatedApprovers: ['group:S-SRE-LEADS'],
      groupCacheMs: 1_000,
      now: () => clock.now,
      userGroups: {
        async resolveMembers(groupId) {
          lookups += 1;
          if (broken) throw new Error('slack down');
          return groupId === 'S-ONCALL' ? ['U1'] : ['U9'];
        },
      },
    });
    expect(await authority.resolve('U1')).toEqual({ approver: true, elevated: false, reader: true });
    expect(await authority.resolve('U9')).toEqual({ approver: true, elevated: true, reader: true });
    expect(await authority.resolve('U1')).toEqual({ approver: true, elevated: false, reader: true });
    expect(lookups).toBe(2);
    // A group id presented as a user id grants nothing.
    expect(await authority.resolve('group:S-ONCALL')).toEqual({ approver: false, elevated: false, reader: false });

    const cold = createConfiguredAuthority({ approvers: ['group:S-ONCALL'], elevatedApprovers: [], userGroups: { resolveMembers: async () => Promise.reject(new Error('down')) } });
    expect(await cold.resolve('U1')).toEqual({ approver: false, elevated: false, reader: false });
    broken = true;
    clock.now = 5_000;
    expect(await authority.resolve('U1')).toEqual({ approver: false, elevated: false, reader: false });
  });
});
