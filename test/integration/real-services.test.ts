/**
 * Every real adapter switched on by configuration alone — Splunk, OpenAI (chat and embeddings),
 * Qdrant and GitHub, each a loopback server speaking its wire format — through the whole loop.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSampleRemote } from '../../src/sample/seed-sample-remote.js';
import { startGitHubServer } from '../loopback/github-server.js';
import { startLoopbackOpenAI, type JsonBody } from '../loopback/openai-server.js';
import { startLoopbackQdrant } from '../loopback/qdrant-server.js';
import { buildSplunkRow, startLoopbackSplunk } from '../loopback/splunk-server.js';
import { fixBranches } from '../support/git-remote.js';
import { ROOT, approveAndAwaitPullRequest, checkoutFixScript, createWorld, type World, awaitIncident } from '../support/medic-world.js';

const closers: (() => Promise<void>)[] = [];
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  for (const close of closers.splice(0)) await close();
});

describe('the whole loop on real adapters over loopback services', () => {
  it('polls Splunk, embeds with OpenAI into Qdrant, analyses with the OpenAI chat API, and opens a GitHub PR', async () => {
    world = await createWorld({ llm: 'offline' });
    const w = world;
    const script = await checkoutFixScript();
    const answers: Record<string, unknown> = { rca_result: script.rca![0], recommendation: { ...(script.recommend![0] as object), actions: [] }, fix_proposal: script.fix![0] };
    const openai = await startLoopbackOpenAI({ chat: (body: JsonBody) => ({ json: answers[body.response_format?.json_schema?.name as string] ?? {} }) });
    const qdrant = await startLoopbackQdrant();
    const splunk = await startLoopbackSplunk({ token: 'splunk-token-1' });
    const github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: ['ghp_realServicesLoopback000000000000000'] });
    closers.push(() => openai.close(), () => qdrant.close(), () => splunk.close(), () => github.close());

    const now = Math.floor(Date.now() / 1000);
    const raw = 'request failed: RangeError: Invalid discount per item: Infinity\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:11)\n    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:58:10)';
    splunk.rows.push(buildSplunkRow({
      cd: '7:1001', time: new Date((now - 30) * 1000).toISOString(), indexTime: now - 20, raw,
      fields: { level: 'ERROR', service: 'shop', message: 'request failed: RangeError: Invalid discount per item: Infinity', txn_id: 'txn-42' },
    }));
    const remote = join(w.dir, 'shop.git');
    await seedSampleRemote({ sourceDir: join(ROOT, 'data/sample-service'), historyFile: join(ROOT, 'data/sample-service.history.json'), remoteDir: remote });

    const medic = await w.startMedic({
      SPLUNK_URL: splunk.url, SPLUNK_TOKEN: 'splunk-token-1',
      MEDIC_LLM: 'auto', OPENAI_API_KEY: 'sk-loopbackKeyForRealServices0000', OPENAI_BASE_URL: openai.url, MEDIC_EMBEDDING_DIMENSIONS: '64',
      QDRANT_URL: qdrant.url,
      MEDIC_DOCS_DIR: join(ROOT, 'data/docs'), MEDIC_REPO_REMOTE: remote, GITHUB_REPOSITORY: 'acme/shop', GITHUB_TOKEN: 'ghp_realServicesLoopback000000000000000', GITHUB_API_URL: github.url,
    });
    await medic.startWorkers();
    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    expect(waiting.firstEvent.id).toContain('7:1001');
    expect(waiting.provenance.rca?.analyst).not.toBe('offline');
    expect(waiting.similarDocs?.[0]?.source).toContain('checkout-divide-by-zero.md');
    expect(qdrant.collectionNames()).toContain('medic_docs');
    expect(openai.requests.some((r) => r.path.endsWith('/embeddings') && (r.body).encoding_format === 'float')).toBe(true);
    expect(splunk.searches.length).toBeGreaterThan(0);

    const fixed = await approveAndAwaitPullRequest(w, medic, waiting);
    expect(fixBranches(remote)).toEqual([fixed.fix!.branch]);
    expect(github.pulls).toHaveLength(1);
    // Secrets never reached the model: no configured token appears in any request to it.
    expect(JSON.stringify(openai.requests)).not.toMatch(/ghp_realServices|splunk-token-1/);
  }, 120_000);
});
