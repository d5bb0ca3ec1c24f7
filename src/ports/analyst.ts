import type { AnalysisProvenance, RcaResult, Recommendation, RecentChange, SimilarDoc, SuspectCommit } from '../domain/analysis.js';
import type { ErrorEvent, LogBundle } from '../domain/event.js';

export interface CodeCandidate {
  file: string;
  content: string;
  score: number;
}

/** A person's reason for a new analysis and what it replaces; untrusted text like any other. */
export interface ReviewContext {
  reason?: string | undefined;
  previousRootCause?: string | undefined;
  previousProposal?: { file: string; diff: string; explanation: string } | undefined;
}

export interface RcaInput {
  event: ErrorEvent;
  title: string;
  logs: LogBundle;
  similarDocs: SimilarDoc[];
  recentChanges: RecentChange[];
  /** The commits that last changed the failing lines (blame), most suspect first. */
  suspectCommits?: SuspectCommit[];
  review?: ReviewContext | undefined;
}

export interface FixInput {
  event: ErrorEvent;
  rca: RcaResult;
  recommendation: Recommendation;
  candidates: CodeCandidate[];
  review?: ReviewContext | undefined;
}

export interface DraftFix {
  file: string;
  after: string;
  explanation: string;
}

/**
 * The three judgement calls of the pipeline. The LLM analyst asks a model; the offline analyst
 * reasons from the nearest documented family and never writes a fix (the pipeline may still offer
 * a suspect commit's revert).
 */
export interface Analyst {
  readonly name: string;
  rca(input: RcaInput): Promise<{ rca: RcaResult; provenance: AnalysisProvenance; context?: string }>;
  recommend(rca: RcaResult): Promise<{ recommendation: Recommendation; provenance: AnalysisProvenance }>;
  proposeFix(input: FixInput): Promise<{ draft?: DraftFix; note?: string; provenance: AnalysisProvenance }>;
}
