/**
 * Localization: for each error, the rank code search gives the file that truly holds the bug.
 * Two sets: the sample incidents found in data/logs (their stacks and message-only variants,
 * searched in data/sample-service seeded as a git remote and read through the git adapter, as the
 * pipeline does), and hand-built traces in several languages and deployment layouts
 * (bench/fixtures/localization/cases.json) over the sample remote or the small polyglot tree.
 * A third set is real: crash traces from public bug reports in several languages, each with its
 * fixing commit (bench/fixtures/localization/real, split by project into a tuning and a frozen
 * half), ranked over the project's layout at the buggy revision beside plain trace order, and the
 * suspect commit checked against the SZZ truth on mirrors of the projects' history.
 * Headline: top1 and top5 as fractions; real_* on the frozen half (real_*_tuning on the other),
 * baseline_* for trace order, suspect_* for the suspect commit on the frozen half.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGitRepository } from '../src/adapters/git/git-repository.js';
import { createDirectoryRepository } from '../src/code-search/directory-repository.js';
import { rankFiles } from '../src/code-search/search-code.js';
import type { CodeRepository } from '../src/ports/code.js';
import { seedSampleRemote } from '../src/sample/seed-sample-remote.js';
import { extractTerms } from '../src/code-search/terms.js';
import { ADVERSARIAL_64K } from './adversarial-text.js';
import { runRealCases, summarize } from './localization-real.js';
import { loadRealSet } from './localization-real-cases.js';
import { runSuspectCases } from './localization-suspects.js';
import type { BenchReport } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const fixtures = join(here, 'fixtures', 'localization');
/** Where mirrors of the real set's projects live (OWNER+NAME/repo, bare); the suspect-commit part needs them. */
const MIRRORS = process.env.MEDIC_BENCH_MIRRORS ?? '/work/.mirror';

interface Case {
  id: string;
  language: string;
  repo: 'sample' | 'polyglot';
  truth: string;
  trace: string;
}

/** The planted bugs of the sample service, recognised by error code or message. */
const SAMPLE_TRUTH: { match: RegExp; file: string }[] = [
  { match: /DISCOUNT_INVALID|Invalid discount per item/, file: 'src/checkout/discounts.ts' },
  { match: /reading 'authorizationId'/, file: 'src/payments/payment-client.ts' },
  { match: /PAGE_OUT_OF_RANGE|page index \d+ out of range/, file: 'src/orders/pagination.ts' },
];

function truthOf(text: string): string | undefined {
  return SAMPLE_TRUTH.find((t) => t.match.test(text))?.file;
}

/** ERROR events of the sample logs: JSON lines (stack field) and plain lines with indented frames. */
async function sampleIncidents(): Promise<Case[]> {
  const cases: Case[] = [];
  const jsonl = await readFile(join(root, 'data', 'logs', 'shop.jsonl'), 'utf8').catch(() => '');
  for (const line of jsonl.split('\n')) {
    let event: { level?: string; message?: string; stack?: string; errorCode?: string; requestId?: string };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.level !== 'ERROR') continue;
    const truth = truthOf(`${event.errorCode ?? ''} ${event.message ?? ''}`);
    if (!truth) continue;
    const id = `log-${event.requestId ?? cases.length}`;
    if (event.stack) cases.push({ id: `${id}-stack`, language: 'node', repo: 'sample', truth, trace: `${event.message ?? ''}\n${event.stack}` });
    cases.push({ id: `${id}-message`, language: 'text', repo: 'sample', truth, trace: `${event.message ?? ''} errorCode=${event.errorCode ?? ''}` });
  }
  const plain = await readFile(join(root, 'data', 'logs', 'shop-gateway.log'), 'utf8').catch(() => '');
  const lines = plain.split('\n');
  lines.forEach((line, i) => {
    if (!/ ERROR /.test(line)) return;
    const truth = truthOf(line);
    if (!truth) return;
    const frames: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j] ?? ''); j++) frames.push(lines[j]!);
    cases.push({ id: `gateway-log-line-${i + 1}`, language: 'node', repo: 'sample', truth, trace: [line, ...frames].join('\n') });
  });
  return cases;
}

/**
 * Median of five runs of extractTerms per adversarial shape, after one warm-up pass over all of
 * them (the first calls measure the JIT, not the scan); the worst shape is the headline.
 */
function termsWorstMs(): { worst: number; perShape: Record<string, number> } {
  const perShape: Record<string, number> = {};
  for (const text of Object.values(ADVERSARIAL_64K)) extractTerms(text);
  for (const [shape, text] of Object.entries(ADVERSARIAL_64K)) {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      extractTerms(text);
      runs.push(performance.now() - started);
    }
    perShape[shape] = runs.sort((a, b) => a - b)[2]!;
  }
  return { worst: Math.max(...Object.values(perShape)), perShape };
}

export default async function localization(): Promise<BenchReport> {
  const work = await mkdtemp(join(tmpdir(), 'medic-bench-localization-'));
  try {
    const { remoteDir } = await seedSampleRemote({
      sourceDir: join(root, 'data', 'sample-service'),
      historyFile: join(root, 'data', 'sample-service.history.json'),
      remoteDir: join(work, 'shop.git'),
    });
    const sample = createGitRepository({ remoteUrl: remoteDir, branch: 'main', workDir: join(work, 'clone') });
    await sample.sync();
    const repos: Record<Case['repo'], CodeRepository> = { sample, polyglot: createDirectoryRepository(join(fixtures, 'polyglot')) };

    const built = (JSON.parse(await readFile(join(fixtures, 'cases.json'), 'utf8')) as { cases: Case[] }).cases;
    const incidents = await sampleIncidents();
    const results: { set: string; id: string; language: string; truth: string; rank: number; top: string }[] = [];
    for (const [set, cases] of [['sample-incidents', incidents], ['built-traces', built]] as const) {
      for (const c of cases) {
        const ranked = await rankFiles(repos[c.repo], { text: c.trace });
        const at = ranked.findIndex((r) => r.file === c.truth);
        results.push({ set, id: c.id, language: c.language, truth: c.truth, rank: at === -1 ? 0 : at + 1, top: ranked[0]?.file ?? '-' });
      }
    }

    const share = (rows: typeof results, k: number) => (rows.length === 0 ? 0 : rows.filter((r) => r.rank >= 1 && r.rank <= k).length / rows.length);
    const groups = [...new Set(results.map((r) => `${r.set}/${r.language}`))].sort();
    const rows = groups.map((g) => {
      const subset = results.filter((r) => `${r.set}/${r.language}` === g);
      return [g, subset.length, share(subset, 1), share(subset, 5)];
    });
    rows.push(['all', results.length, share(results, 1), share(results, 5)]);
    const set = await loadRealSet(fixtures);
    const real = await runRealCases(set.cases);
    const frozen = real.filter((r) => r.split === 'frozen');
    const tuning = real.filter((r) => r.split === 'tuning');
    const realLanguages = [...new Set(real.map((r) => r.language))].sort();
    const perLanguage: Record<string, number> = {};
    for (const [half, subset] of [['frozen', frozen], ['tuning', tuning]] as const) {
      for (const language of realLanguages) {
        const s = summarize(subset.filter((r) => r.language === language));
        rows.push([`real ${half}/${language}`, s.cases, s.top1, s.top5, s.baselineTop1, s.baselineTop5]);
        if (half === 'frozen') Object.assign(perLanguage, { [`real_cases_frozen_${language}`]: s.cases, [`real_top1_frozen_${language}`]: s.top1, [`baseline_top1_frozen_${language}`]: s.baselineTop1 });
      }
      const s = summarize(subset);
      rows.push([`real ${half}`, s.cases, s.top1, s.top5, s.baselineTop1, s.baselineTop5]);
    }
    const suspectWork = join(work, 'suspects');
    const suspects = await runSuspectCases(set.cases.filter((c) => c.split === 'frozen'), { mirrors: MIRRORS, workDir: join(suspectWork, 'frozen') });
    const suspectsTuning = await runSuspectCases(set.cases.filter((c) => c.split === 'tuning'), { mirrors: MIRRORS, workDir: join(suspectWork, 'tuning') });
    const shareOf = <T>(items: readonly T[], pick: (item: T) => boolean) => (items.length === 0 ? 0 : items.filter(pick).length / items.length);
    const suspectShare = (pick: (r: (typeof suspects.results)[number]) => boolean) => shareOf(suspects.results, pick);
    const terms = termsWorstMs();
    const sampleOnly = results.filter((r) => r.set === 'sample-incidents');
    const builtOnly = results.filter((r) => r.set === 'built-traces');
    return {
      headline: {
        top1: share(results, 1),
        top5: share(results, 5),
        cases: results.length,
        sample_top1: share(sampleOnly, 1),
        sample_cases: sampleOnly.length,
        built_top1: share(builtOnly, 1),
        built_cases: builtOnly.length,
        mrr: results.reduce((sum, r) => sum + (r.rank > 0 ? 1 / r.rank : 0), 0) / Math.max(1, results.length),
        real_top1: summarize(frozen).top1,
        real_top5: summarize(frozen).top5,
        real_mrr: summarize(frozen).mrr,
        real_top1_tuning: summarize(tuning).top1,
        real_top5_tuning: summarize(tuning).top5,
        baseline_top1_frozen: summarize(frozen).baselineTop1,
        baseline_top5_frozen: summarize(frozen).baselineTop5,
        baseline_top1_tuning: summarize(tuning).baselineTop1,
        no_ranking: summarize(real).noRanking,
        no_ranking_frozen: summarize(frozen).noRanking,
        real_cases: real.length,
        real_cases_frozen: frozen.length,
        real_cases_tuning: tuning.length,
        real_projects: new Set(real.map((r) => r.project)).size,
        real_languages: realLanguages.length,
        ...perLanguage,
        suspect_commit_top1: suspectShare((r) => r.rank === 1),
        suspect_commit_top3: suspectShare((r) => r.rank >= 1 && r.rank <= 3),
        suspect_blame_top1: suspectShare((r) => r.blameHit),
        suspect_cases: suspects.results.length,
        suspect_unmeasured_no_mirror: suspects.noMirror,
        suspect_unmeasured_no_szz: suspects.noSzz,
        suspect_commit_top1_tuning: shareOf(suspectsTuning.results, (r) => r.rank === 1),
        suspect_commit_top3_tuning: shareOf(suspectsTuning.results, (r) => r.rank >= 1 && r.rank <= 3),
        suspect_blame_top1_tuning: shareOf(suspectsTuning.results, (r) => r.blameHit),
        suspect_cases_tuning: suspectsTuning.results.length,
        suspect_unmeasured_tuning: suspectsTuning.noMirror + suspectsTuning.noSzz,
        terms_worst_ms_64k: Math.round(terms.worst * 100) / 100,
        load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
      },
      table: { columns: ['set/language', 'cases', 'top1', 'top5', 'order top1', 'order top5'], rows },
      detail: { misses: results.filter((r) => r.rank !== 1), results, real_misses: real.filter((r) => r.rank !== 1), real, suspects: suspects.results, suspects_tuning: suspectsTuning.results, split: set.split, terms_ms_64k_by_shape: terms.perShape },
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
