import type { GroupingRule } from '../domain/grouping-rules.js';
import type { Incident, IncidentRoute } from '../domain/incident.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';
import type { PipelineDeps } from '../pipeline/pipeline-deps.js';
import type { Analyst } from '../ports/analyst.js';
import type { Authority } from '../ports/authority.js';
import type { Chat } from '../ports/chat.js';
import type { CodeRepository, FixPublisher, PullRequests } from '../ports/code.js';
import type { LogSource } from '../ports/log-source.js';
import type { Checkable } from '../ports/service-check.js';
import type { SlackWebClient } from '../adapters/slack/web-client.js';
import type { ApprovalStore } from '../gateway/effect-gate/approval-store.js';
import type { ToolGateway } from '../gateway/gateway.js';
import type { SlackSettings } from './chat-mode.js';

/** The adapters behind every port, chosen from config by `createAdapters` (or by a test). */
export interface Adapters {
  logs: LogSource;
  chat: Chat;
  analystFor: (incidentId: string) => Analyst;
  repo: CodeRepository;
  publisher: FixPublisher;
  pullRequests: PullRequests;
  authority: Authority;
  /** Where approvals of MUTATING intents are recorded for the gateway. */
  approvals: ApprovalStore;
  /** The service catalog in force (reloaded when its files change). */
  catalog: ServiceCatalog;
  /** Where the catalog routes a log service name (channel, repository, owner), as the incident keeps it. */
  routeFor: (service: string) => IncidentRoute;
  /** The operator's grouping rules (MEDIC_GROUPING_FILE), validated at start. */
  groupingRules: readonly GroupingRule[];
  /** The tool gateway, for the card's action buttons (absent in tests that wire no gateway). */
  gateway?: ToolGateway;
  /** Validates the recommendation's actions and runs the READ_ONLY ones (the diagnostics step). */
  runDiagnostics?: PipelineDeps['runDiagnostics'];
  /** Slack (or the sandbox) when the chat is not the console: the web role serves its receiver. */
  slack?: SlackSettings & { client?: SlackWebClient; sandbox: boolean };
  /** The gateway's degraded-mode notice for the card, when an upstream is rate-limited. */
  degradedNotice: () => string | undefined;
  findSimilarDocs: PipelineDeps['findSimilarDocs'];
  findRecentChanges: PipelineDeps['findRecentChanges'];
  searchCode: PipelineDeps['searchCode'];
  findSuspectCommits: NonNullable<PipelineDeps['findSuspectCommits']>;
  findRevert: NonNullable<PipelineDeps['findRevert']>;
  validateFix: PipelineDeps['validateFix'];
  /** Runs the service's check command on a proposal (the proposal-check step). */
  checkProposal?: PipelineDeps['checkProposal'];
  /** Writes a resolved incident back to the documents (root cause, fix, verdict, feedback). */
  learnFrom: (incident: Incident) => Promise<void>;
  /** Work to do once at worker start (seed the sample remote, ingest docs…). */
  prepare?: () => Promise<void>;
  /** Every configured service, for `doctor` and `/readyz`. */
  checks: Checkable[];
  close?: () => Promise<void>;
}
