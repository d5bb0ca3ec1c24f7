import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { templatesCommand } from '../../src/cli/commands/templates.js';
import { buildCliIo } from '../support/cli-io.js';

function buildIo() {
  const io = buildCliIo();
  return { io, stdout: io.out, stderr: io.err };
}

describe('templates command', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-templates-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints one JSON line per input line, in order, with the final template of each group', async () => {
    const file = join(dir, 'messages.log');
    const lines = [
      'Invalid user admin from 10.0.0.1',
      'Payment declined for order 123',
      '',
      'Invalid user oracle from 10.0.0.2',
      'Payment timeout for order 456',
      'Invalid user test from 10.0.0.3',
    ];
    // CRLF line ends and a last line without a newline.
    await writeFile(file, lines.join('\r\n'));
    const { io, stdout } = buildIo();

    expect(await templatesCommand.run([file], io)).toBe(0);

    const out = stdout()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { group: string; template: string });
    expect(out).toHaveLength(lines.length);
    for (const row of out) expect(Object.keys(row)).toEqual(['group', 'template']);
    expect(out[0]).toEqual(out[3]);
    expect(out[0]).toEqual(out[5]);
    expect(out[0]?.template).toBe('Invalid user <*> from <*>');
    expect(out[1]?.template).toBe('Payment declined for order <*>');
    expect(out[2]?.template).toBe('');
    expect(out[4]?.template).toBe('Payment timeout for order <*>');
    expect(out[1]?.group).not.toBe(out[4]?.group);
  });

  it('fails with exit code 2 and says so when the file is missing', async () => {
    const { io, stdout, stderr } = buildIo();
    expect(await templatesCommand.run([join(dir, 'absent.log')], io)).toBe(2);
    expect(stderr()).toContain('no such file');
    expect(stdout()).toBe('');
  });

  it('fails with exit code 2 and the usage when no file is given', async () => {
    const { io, stderr } = buildIo();
    expect(await templatesCommand.run([], io)).toBe(2);
    expect(stderr()).toContain(templatesCommand.usage);
  });

  it('reads standard input when the file is -', async () => {
    const io = buildCliIo({ stdin: 'Disk sda1 at 91%\nDisk sdb2 at 97%\n' });
    expect(await templatesCommand.run(['-'], io)).toBe(0);
    expect(io.out().trimEnd().split('\n').map((l) => (JSON.parse(l) as { template: string }).template)).toEqual(['Disk <*> at <*>', 'Disk <*> at <*>']);
  });

  it('prints nothing for an empty file', async () => {
    const file = join(dir, 'empty.log');
    await writeFile(file, '');
    const { io, stdout } = buildIo();
    expect(await templatesCommand.run([file], io)).toBe(0);
    expect(stdout()).toBe('');
  });
});
