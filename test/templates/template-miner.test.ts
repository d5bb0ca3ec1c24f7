import { describe, expect, it } from 'vitest';
import { MinerSnapshot } from '../../src/domain/templates/miner-snapshot.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';

const STREAM = [
  'Payment declined for order 123',
  'Payment timeout for order 456',
  'Invalid user admin from 10.0.0.1',
  'Invalid user oracle from 10.0.0.2',
  'Payment declined for order 789',
  'Invalid user test from 10.0.0.3',
  'Invalid user guest from 10.0.0.4',
  'Loading module /opt/app/lib/a.so failed',
  'Loading module /opt/app/lib/b.so failed',
  'Loading module ./plugins/c.so failed',
];

function groupsOf(messages: string[]): string[] {
  const miner = createTemplateMiner();
  const ids = messages.map((m) => miner.add(m).groupId);
  return ids.map((id) => miner.lookup(id)?.groupId ?? id);
}

describe('createTemplateMiner', () => {
  it('keeps two distinct failures that share most words as two groups', () => {
    const miner = createTemplateMiner();
    const declined = miner.add('Payment declined for order 123');
    const timeout = miner.add('Payment timeout for order 456');
    expect(declined.groupId).not.toBe(timeout.groupId);
    expect(declined.template).toBe('Payment declined for order <*>');
    expect(timeout.template).toBe('Payment timeout for order <*>');
    expect(miner.groupCount()).toBe(2);
  });

  it('puts identical messages that differ only in numbers, ids, uuids and addresses in one group', () => {
    const miner = createTemplateMiner();
    const results = [
      miner.add('request 17 from 10.1.2.3:443 for 0b7e1c52-3c2d-4b8e-9a55-5d6a8e2f1c00 took 35ms'),
      miner.add('request 981 from 192.168.0.7:80 for 9f0e7c11-aaaa-4bbb-8ccc-0123456789ab took 2s'),
      miner.add('request 5 from 172.16.1.1:8080 for 00000000-0000-4000-8000-000000000000 took 120 ms'),
    ];
    expect(new Set(results.map((r) => r.groupId)).size).toBe(1);
    expect(results[2]?.template).toBe('request <*> from <*> for <*> took <*>');
  });

  it('is deterministic: the same stream gives the same ids and templates', () => {
    const run = (): string[] => {
      const miner = createTemplateMiner();
      return STREAM.map((m) => JSON.stringify(miner.add(m)));
    };
    expect(run()).toEqual(run());
  });

  it('generalizes a variable position once enough distinct words are seen there, and keeps the first id', () => {
    const miner = createTemplateMiner();
    const first = miner.add('Invalid user admin from 10.0.0.1');
    miner.add('Invalid user oracle from 10.0.0.2');
    const third = miner.add('Invalid user test from 10.0.0.3');
    expect(third).toEqual({ groupId: first.groupId, template: 'Invalid user <*> from <*>' });
    expect(miner.lookup(first.groupId)?.template).toBe('Invalid user <*> from <*>');
    expect(miner.add('Invalid user root from 10.0.0.9').groupId).toBe(first.groupId);
  });

  it('resolves ids of merged groups to the surviving group', () => {
    const miner = createTemplateMiner();
    const oracle = miner.add('Invalid user oracle from 10.0.0.2');
    const admin = miner.add('Invalid user admin from 10.0.0.1');
    miner.add('Invalid user test from 10.0.0.3');
    expect(miner.lookup(admin.groupId)?.groupId).toBe(oracle.groupId);
    expect(miner.groupCount()).toBe(1);
  });

  it('keeps a group id when its template generalizes', () => {
    const miner = createTemplateMiner();
    const a = miner.add('Loading module /opt/app/lib/a.so failed');
    const b = miner.add('Loading module ./plugins/c.so failed');
    expect(b.groupId).toBe(a.groupId);
    expect(a.template).toBe('Loading module <*> failed');
  });

  it('groups the example stream as expected', () => {
    const groups = groupsOf(STREAM);
    expect(new Set(groups).size).toBe(4);
    expect(groups[0]).toBe(groups[4]);
    expect(groups[0]).not.toBe(groups[1]);
  });

  it('restores from a JSON snapshot with the same ids and the same future decisions', () => {
    const original = createTemplateMiner();
    const ids = STREAM.slice(0, 6).map((m) => original.add(m).groupId);
    const snapshot = MinerSnapshot.parse(JSON.parse(JSON.stringify(original.snapshot())));
    const restored = createTemplateMiner({}, snapshot);

    expect(restored.groupCount()).toBe(original.groupCount());
    expect(snapshot.aliases.length).toBeGreaterThan(0);
    for (const id of ids) expect(restored.lookup(id)).toEqual(original.lookup(id));
    for (const m of STREAM.slice(6)) expect(restored.add(m)).toEqual(original.add(m));
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it('treats words of any script as words', () => {
    const miner = createTemplateMiner();
    const first = miner.add('Пользователь иван не найден');
    miner.add('Пользователь пётр не найден');
    expect(miner.add('Пользователь анна не найден')).toEqual({ groupId: first.groupId, template: 'Пользователь <*> не найден' });
  });

  it('forgets the least recently used group past maxGroups', () => {
    const miner = createTemplateMiner({ maxGroups: 3 });
    const kept = miner.add('alpha started');
    for (const word of ['beta', 'gamma', 'delta']) {
      miner.add(`${word} started`);
      miner.add('alpha started');
    }
    expect(miner.groupCount()).toBe(3);
    expect(miner.lookup(kept.groupId)).toBeDefined();
    expect(miner.snapshot().groups.map((g) => g.template[0])).toEqual(['gamma', 'delta', 'alpha']);
  });
});
