import type { ErrorDoc } from '../domain/analysis.js';
import { capText } from '../domain/event.js';
import type { Incident } from '../domain/incident.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { upsertDocs, type RetrievalDeps } from './indexed-doc.js';

/** What the approver says after the fact, beyond approve/reject. */
export interface IncidentFeedback {
  /** Whether the root cause Medic gave was the real one. */
  rootCauseCorrect?: boolean;
  /** Free text: what was really wrong, what fixed it. */
  note?: string;
}

export const INCIDENT_SOURCE = 'incidents';

function section(heading: string, lines: (string | undefined | false)[]): string {
  const body = lines.filter((l): l is string => typeof l === 'string' && l.trim() !== '');
  return body.length === 0 ? '' : `## ${heading}\n${body.join('\n')}`;
}

function verdictLines(incident: Incident, feedback: IncidentFeedback): string[] {
  const lines: string[] = [];
  const decision = incident.decision;
  if (decision) {
    const who = decision.actor.name ?? decision.actor.id;
    lines.push(`The proposed fix was ${decision.verdict} by ${who} at ${decision.at}.${decision.reason ? ` Reason: ${decision.reason}` : ''}`);
  }
  if (feedback.rootCauseCorrect !== undefined) lines.push(feedback.rootCauseCorrect ? 'The root cause was confirmed.' : 'The root cause was wrong.');
  if (incident.fix) {
    const pr = incident.fix.pullRequest ? `, pull request ${incident.fix.pullRequest.url}` : '';
    lines.push(`Fix branch ${incident.fix.branch} (${incident.fix.pushStatus}${pr}${incident.fix.checks ? `, checks ${incident.fix.checks}` : ''}).`);
  }
  return lines;
}

/**
 * A resolved incident as a document, so the next similar error finds what Medic and its humans
 * learned. Pure. Undefined when there is nothing to learn (no analysis and no feedback). Secrets
 * are redacted: the text came from logs and model output and will be stored and shown again.
 */
export function incidentAsDoc(incident: Incident, feedback: IncidentFeedback = {}): ErrorDoc | undefined {
  if (!incident.rca && !feedback.note) return undefined;
  const event = incident.firstEvent;
  const rca = incident.rca;
  const rootCauseWrong = feedback.rootCauseCorrect === false;
  const body = [
    section('Symptom', [event.errorCode && `Error code: ${event.errorCode}`, capText(event.message, 1_500), incident.title !== event.message && `Template: ${incident.title}`]),
    section(rootCauseWrong ? 'Root cause given (judged wrong)' : 'Root cause', [rca?.rootCause, ...(rca?.contributingFactors ?? []).map((f) => `- ${f}`)]),
    section('Fix', [
      incident.proposal && `Changed ${incident.proposal.file}: ${incident.proposal.explanation}`,
      incident.recommendation && `Recommended (${incident.recommendation.kind}): ${incident.recommendation.summary}`,
    ]),
    section('Verdict', verdictLines(incident, feedback)),
    section('Feedback', [feedback.note && capText(feedback.note, 2_000)]),
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    id: `incident-${incident.id}`,
    title: redactSecrets(capText(`Incident ${incident.id}: ${incident.title}`, 200)),
    body: redactSecrets(body),
    source: INCIDENT_SOURCE,
    service: incident.service,
    ...(event.errorCode === undefined ? {} : { errorCode: event.errorCode }),
  };
}

/** Writes the incident's document (replacing an earlier version of it); returns it, or undefined. */
export async function upsertIncidentDoc(deps: RetrievalDeps, incident: Incident, feedback: IncidentFeedback = {}): Promise<ErrorDoc | undefined> {
  const doc = incidentAsDoc(incident, feedback);
  if (!doc) return undefined;
  await deps.store.ensure(deps.embedder.id, deps.embedder.dimension);
  await upsertDocs(deps, [{ ...doc, path: `incident ${incident.id}` }]);
  return doc;
}
