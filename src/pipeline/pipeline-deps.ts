import type { ActionIntent, RecentChange, SimilarDoc, SuspectCommit } from '../domain/analysis.js';
import type { RevertOutcome } from '../retrieval/find-revert.js';
import type { ErrorEvent } from '../domain/event.js';
import type { FixProposal } from '../domain/fix.js';
import type { Diagnostics, Incident, IncidentRoute } from '../domain/incident.js';
import type { IncidentStore } from '../ports/incident-store.js';
import type { FailureLinks } from '../ports/failure-links.js';
import type { RepositoryOf } from '../domain/failure-signature.js';
import type { Analyst, CodeCandidate, DraftFix } from '../ports/analyst.js';
import type { Chat } from '../ports/chat.js';
import type { RequestCard, RequestReply } from '../ports/card-delivery.js';
import type { LogSource } from '../ports/log-source.js';
import type { Logger } from '../observability/logger.js';
import type { CheckProposal } from '../ports/proposal-checks.js';
import type { Metrics } from '../observability/metrics.js';

export interface PipelineSettings {
  windowBeforeMs: number;
  windowAfterMs: number;
  windowLimit: number;
  similarDocs: number;
  recentChangesDays: number;
  /** A suspect commit at most this many days older than the first event may be reverted (default 14). */
  revertMaxAgeDays?: number;
  /** Propose the revert of a recent suspect commit when no other fix is proposed (default true). */
  revertProposals?: boolean;
}

/** Everything the steps reach, as ports and functions; main.ts decides what stands behind each. */
export interface PipelineDeps {
  store: IncidentStore;
  logs: LogSource;
  chat: Chat;
  /**
   * Hands the card to its own durable delivery job, the one path every card write takes (its lock
   * is fenced): no step waits on Slack, and the analysis completes and persists whatever Slack answers.
   */
  requestCard: RequestCard;
  /** Hands a thread reply to the same delivery (kept until the card is posted and Slack takes it). */
  requestReply: RequestReply;
  /** The analyst for one incident (its token budget is scoped to the incident). */
  analystFor(incidentId: string): Analyst;
  findSimilarDocs(input: { event: ErrorEvent; template: string; limit: number }): Promise<SimilarDoc[]>;
  findRecentChanges(input: { event: ErrorEvent; candidates: string[]; sinceDays: number }): Promise<RecentChange[]>;
  searchCode(input: { incident: Incident }): Promise<CodeCandidate[]>;
  /** Blames the top in-project frames; absent where there is no history to read. */
  findSuspectCommits?(input: { event: ErrorEvent }): Promise<SuspectCommit[]>;
  /** The recent suspect's hunks at the error's failing lines undone on the current file, or why not. */
  findRevert?(input: { suspects: SuspectCommit[]; maxAgeDays: number; event?: ErrorEvent }): Promise<RevertOutcome>;
  /** Code decides whether the model's draft becomes a proposal; a string is the refusal reason. */
  validateFix(draft: DraftFix, candidates: CodeCandidate[]): FixProposal | string;
  /** The service's check command run on the proposal before it is offered; absent: proposals are "not checked". */
  checkProposal?: CheckProposal;
  /**
   * Validates the recommendation's proposed actions and runs the READ_ONLY ones through the
   * gateway. Absent when no gateway is wired (tests, tools): proposals are then only noted.
   */
  runDiagnostics?(input: { incidentId: string; intents: readonly ActionIntent[]; notes: readonly string[] }): Promise<Diagnostics>;
  /** The service catalog's route for a log service name (channel, repository); absent: the configured channel. */
  routeFor?(service: string): IncidentRoute;
  /** Links another service's incident of the same failure; absent, every incident proposes its own fix. */
  failureLinks?: FailureLinks;
  /** Which repository a service's code is in (default: the one configured repository). */
  repositoryOf?: RepositoryOf;
  settings: PipelineSettings;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  /** Called after a step is persisted; the crash drill uses it. */
  afterStep?: (step: string, incident: Incident) => void;
}
