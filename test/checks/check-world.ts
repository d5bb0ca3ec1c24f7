/** A real bare remote and Medic's clone of it in a temp directory, with a proposal checker over the clone. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { createGitRunner } from '../../src/adapters/git/git-runner.js';
import { createProposalChecker, type ProposalChecker } from '../../src/adapters/git/proposal-checker.js';
import type { CheckSettings } from '../../src/domain/catalog/catalog.js';
import { createFixProposal, type FixProposal } from '../../src/domain/fix.js';
import type { ProposalCheck } from '../../src/domain/proposal-check.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import type { Incident } from '../../src/domain/incident.js';
import { createBareRemote } from '../support/catalog-remotes.js';

export interface CheckWorld {
  dir: string;
  clone: string;
  checker: ProposalChecker;
  propose(file: string, after: string): FixProposal;
  check(file: string, after: string, settings: Partial<CheckSettings> & { command: string }, signal?: AbortSignal): Promise<{ proposal: FixProposal; result: ProposalCheck }>;
  cleanup(): void;
}

export async function createCheckWorld(files: Record<string, string>, options: { env?: NodeJS.ProcessEnv; slots?: <T>(fn: () => Promise<T>) => Promise<T> } = {}): Promise<CheckWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'medic-check-world-'));
  const bare = createBareRemote(join(dir, 'remote.git'), [{ message: 'the service', date: '2026-11-01T10:00:00Z', files }]);
  const clone = join(dir, 'clone');
  await createGitRepository({ remoteUrl: bare, branch: 'main', workDir: clone }).sync();
  const checker = createProposalChecker({
    git: createGitRunner({ workDir: clone, remoteUrl: bare }), branch: 'main', worktreeRoot: join(dir, 'worktrees'),
    // Medic's own node_modules: its TypeScript compiles the TypeScript service offline.
    medicNodeModules: resolve('node_modules'),
    ...(options.env ? { env: options.env } : {}),
    ...(options.slots ? { slots: options.slots } : {}),
  });
  const propose = (file: string, after: string) => createFixProposal({ file, before: files[file] ?? '', after, explanation: 'the proposed fix' });
  return {
    dir, clone, checker, propose,
    async check(file, after, settings, signal) {
      const proposal = propose(file, after);
      const result = await checker({ proposal, settings: { timeoutS: 120, memoryMb: 4_096, ...settings }, path: '', ...(signal ? { signal } : {}) });
      return { proposal, result };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

type Block = { type: string; block_id?: string; text?: { text: string }; elements?: { action_id?: string; text?: string | { text: string } }[] };

/** The card of an incident awaiting approval of `proposal`, with its check: the check's text and the decision buttons. */
export function cardOf(proposal: FixProposal, proposalCheck: ProposalCheck | undefined): { checkText: string; buttons: string[] } {
  const incident: Incident = buildAnalysedIncident({ proposal, ...(proposalCheck ? { proposalCheck } : {}) });
  const blocks = presentIncidentCard({ incident }).blocks as Block[];
  const check = blocks.find((b) => b.block_id === 'medic_check');
  const checkText = check?.text?.text ?? (check?.elements?.[0]?.text as string | undefined) ?? '';
  const buttons = (blocks.find((b) => b.block_id === 'medic_decision')?.elements ?? []).map((e) => e.action_id ?? '');
  return { checkText, buttons };
}
