import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { jsonSafe, terminalIo, terminalJson, terminalText } from '../../src/cli/terminal-output.js';
import { looksBinary } from '../../src/analysts/validate-fix.js';
import { buildCliIo } from '../support/cli-io.js';
import { createWorld, type World } from '../support/medic-world.js';

// Erase the line, move the cursor up, set a window title, reverse the text, hide a tag character.
const HOSTILE = 'checkout failed\x1b[2K\x1b[1A\x1b]0;pwned\x07 ok\r\u202esdrawkcab\u202c\u{e0041}';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('terminal output shows control characters instead of obeying them', () => {
  it('escapes ESC, BEL, CR, bidi overrides and tag characters; keeps tab and newline', () => {
    const out = terminalText(`${HOSTILE}\n\tnext`);
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u{e0000}-\u{e0fff}]/u); // eslint-disable-line no-control-regex -- control characters are what must be absent
    expect(out).toContain('\\x1b[2K');
    expect(out).toContain('\\x07');
    expect(out).toContain('\\r');
    expect(out).toContain('\\u{202e}');
    expect(out).toContain('\n\tnext');
  });

  it('JSON output holds the same visible escapes, with nothing raw in it', () => {
    const json = terminalJson({ title: HOSTILE, nested: [{ note: 'token=tk9f8e7d6c5b4a' }] });
    expect(json).not.toMatch(/[\x00-\x1f\u202e]/u); // eslint-disable-line no-control-regex -- see above
    const parsed = JSON.parse(json) as { title: string; nested: { note: string }[] };
    expect(parsed.title).toBe(terminalText(HOSTILE));
    expect(parsed.nested[0]!.note).toBe('token=[REDACTED:secret]');
  });

  it('every chunk written through terminalIo is escaped and redacted', () => {
    const io = buildCliIo();
    const safe = terminalIo(io);
    safe.stdout.write(`a\x1b[31mred DB_PASS=hunter2x\n`);
    safe.stderr.write('b\x1b[0m\n');
    expect(io.out()).toBe('a\\x1b[31mred DB_PASS=[REDACTED:secret]\n');
    expect(io.err()).toBe('b\\x1b[0m\n');
  });

  it('machine-read JSON lines keep their data exactly and show nothing raw', async () => {
    const line = jsonSafe(JSON.stringify({ template: HOSTILE }));
    expect(line).not.toMatch(/[\x00-\x1f\u202e\u{e0041}]/u); // eslint-disable-line no-control-regex -- see above
    expect((JSON.parse(line) as { template: string }).template).toBe(HOSTILE);
    const dir = await mkdtemp(join(tmpdir(), 'medic-templates-'));
    try {
      await writeFile(join(dir, 'in.log'), `${HOSTILE}\nplain line 42\n`);
      const io = buildCliIo();
      expect(await runCli(['templates', join(dir, 'in.log')], io)).toBe(0);
      expect(io.out()).not.toMatch(/[\x07\x1b\r\u202e]/u); // eslint-disable-line no-control-regex -- see above
      for (const row of io.out().trim().split('\n')) expect(JSON.parse(row)).toHaveProperty('template');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('looksBinary counts ESC as a control byte', () => {
    expect(looksBinary(`${'\x1b[2K'.repeat(20)}${'x'.repeat(400)}`)).toBe(true);
  });

  it('`medic show` and `medic incidents` print a hostile title visibly', async () => {
    world = await createWorld({ llm: 'offline' });
    const event = { id: 'hostile-1', source: 'replay', time: '2026-03-02T10:15:00.000Z', service: 'checkout', severity: 'error', message: HOSTILE, raw: HOSTILE };
    const file = `${world.dir}/hostile.json`;
    await writeFile(file, JSON.stringify([event]));
    const run = async (...argv: string[]) => {
      const io = buildCliIo({ env: world!.env });
      const code = await runCli(argv, io);
      return { code, out: io.out() + io.err() };
    };
    expect((await run('replay', file)).code).toBe(0);
    const list = await run('incidents');
    const id = /^(inc-\S+)/m.exec(list.out)?.[1];
    expect(id).toBeDefined();
    for (const out of [list.out, (await run('show', id!)).out, (await run('show', id!, '--json')).out]) {
      expect(out).not.toMatch(/[\x07\x1b\r\u202e]/u); // eslint-disable-line no-control-regex -- see above
    }
    expect((await run('show', id!)).out).toContain('\\u{202e}sdrawkcab');
  }, 60_000);
});
