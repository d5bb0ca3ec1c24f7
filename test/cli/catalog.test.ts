import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliWith } from '../support/cli-io.js';
import { ROOT } from '../support/medic-world.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const base = (data: string) => ({ MEDIC_DATA_DIR: data, MEDIC_SAMPLE_DIR: join(ROOT, 'data') });

describe('medic catalog', () => {
  it('lists the sample catalog: two services, two repositories, two channels', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-catalog-cli-'));
    const { code, out } = await runCliWith(base(dir), 'catalog');
    expect(code).toBe(0);
    expect(out).toContain(`Service catalog from ${join(ROOT, 'data/catalog.yaml')}`);
    expect(out).toMatch(/^shop {2}\(owner team-shop\)$/m);
    expect(out).toMatch(/^loyalty {2}\(owner team-loyalty\)$/m);
    expect(out).toContain('#incidents');
    expect(out).toContain('#loyalty-oncall');
    expect(out).toContain(`sample-service: ${join(dir, 'remotes/sample-service.git')} @ main`);
    expect(out).toContain(`sample-loyalty: ${join(dir, 'remotes/sample-loyalty.git')} @ main`);
    expect(out).toContain('undeclared services route to shop');
  });

  it('shows the single-service variables as one implicit service', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-catalog-cli-'));
    const { code, out } = await runCliWith({ ...base(dir), MEDIC_REPO_REMOTE: 'https://github.com/acme/shop.git', MEDIC_SLACK_CHANNEL: '#ops', MEDIC_REPO_BRANCH: 'trunk' }, 'catalog', '--json');
    expect(code).toBe(0);
    const catalog = JSON.parse(out) as { services: { name: string; channel: string }[]; repositories: { remote: string; branch: string }[]; unknownRoutesTo: string };
    expect(catalog.services).toMatchObject([{ name: 'default', channel: 'ops' }]);
    expect(catalog.repositories).toMatchObject([{ remote: 'https://github.com/acme/shop.git', branch: 'trunk' }]);
    expect(catalog.unknownRoutesTo).toBe('default');
  });

  it('validate exits 0 on a good catalog and 1 listing every problem of a bad one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-catalog-cli-'));
    const good = await runCliWith(base(dir), 'catalog', 'validate');
    expect([good.code, good.out.trim()]).toEqual([0, `ok: 2 service(s), 2 repositories, from ${join(ROOT, 'data/catalog.yaml')}`]);

    const entities = join(dir, 'entities');
    await writeFile(join(dir, 'catalog.yaml'), 'version: 1\nservices:\n  - name: checkout\n    repository: ghost\n  - name: Bad Name\n');
    await rm(entities, { recursive: true, force: true });
    const bad = await runCliWith({ ...base(dir), MEDIC_CATALOG_FILE: join(dir, 'catalog.yaml'), MEDIC_CATALOG_DIR: entities }, 'catalog', 'validate');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('services.1.name: must be a lowercase slug');
    expect(bad.err).toContain(`${entities}: cannot be listed: ENOENT`);

    await writeFile(join(dir, 'catalog.yaml'), 'version: 1\nservices:\n  - name: checkout\n    repository: ghost\n');
    const refs = await runCliWith({ ...base(dir), MEDIC_CATALOG_FILE: join(dir, 'catalog.yaml') }, 'catalog', 'validate', '--json');
    expect(refs.code).toBe(1);
    expect(JSON.parse(refs.out)).toEqual({ ok: false, problems: [{ where: `${join(dir, 'catalog.yaml')}: service checkout`, message: 'names repository ghost, which no repositories entry declares' }] });
  });

  it('a stray word is a usage error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-catalog-cli-'));
    expect((await runCliWith(base(dir), 'catalog', 'bogus')).code).toBe(2);
  });
});
