import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Medic's Prometheus metrics, on a registry of their own so tests can create several. */
export interface Metrics {
  registry: Registry;
  stepDuration: Histogram<'step' | 'outcome'>;
  stepFailures: Counter<'step'>;
  eventsIngested: Counter<'status'>;
  llmCalls: Counter<'step' | 'outcome'>;
  llmTokens: Counter<'step' | 'kind'>;
  queueDepth: Gauge<'queue' | 'state'>;
  incidentsByState: Gauge<'state'>;
  cardDeliveries: Counter<'outcome'>;
  cardDeliveryFailures: Counter<'reason'>;
  cardsFailing: Gauge;
  slackStaleUpdates: Counter;
  /** Seconds from the incident's first event to each milestone (card, decision, push, merge, verified), per service. */
  timeTo: Histogram<'service' | 'milestone'>;
}

export type Milestone = 'card' | 'decision' | 'push' | 'merge' | 'verified';

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'medic_' });
  const registers = [registry];
  return {
    registry,
    stepDuration: new Histogram({ name: 'medic_step_duration_seconds', help: 'Duration of pipeline and fix steps', labelNames: ['step', 'outcome'], buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 15, 60], registers }),
    stepFailures: new Counter({ name: 'medic_step_failures_total', help: 'Failed pipeline and fix steps', labelNames: ['step'], registers }),
    eventsIngested: new Counter({ name: 'medic_events_ingested_total', help: 'Polled error events by outcome (created, absorbed, duplicate, held below the opening rule, overflow)', labelNames: ['status'], registers }),
    llmCalls: new Counter({ name: 'medic_llm_calls_total', help: 'Analyst calls by step, labelled with the analyst that answered (LLM, offline, degraded)', labelNames: ['step', 'outcome'], registers }),
    llmTokens: new Counter({ name: 'medic_llm_tokens_total', help: 'LLM tokens by step and kind (prompt, completion)', labelNames: ['step', 'kind'], registers }),
    queueDepth: new Gauge({ name: 'medic_queue_jobs', help: 'Jobs per queue and state', labelNames: ['queue', 'state'], registers }),
    incidentsByState: new Gauge({ name: 'medic_incidents', help: 'Incidents by state', labelNames: ['state'], registers }),
    cardDeliveries: new Counter({ name: 'medic_card_deliveries_total', help: 'Card delivery job runs by outcome (posted, updated, progress, unchanged, replied, progress_dropped, refused_stale, failed)', labelNames: ['outcome'], registers }),
    cardDeliveryFailures: new Counter({ name: 'medic_card_delivery_failures_total', help: "Failed card deliveries by Slack's reason (ratelimited, timeout, channel_not_found, …); each is retried", labelNames: ['reason'], registers }),
    cardsFailing: new Gauge({ name: 'medic_cards_failing', help: 'Incidents whose card Slack has not taken yet (retrying)', registers }),
    slackStaleUpdates: new Counter({ name: 'medic_slack_stale_updates_total', help: 'Card updates skipped because a newer render was already sent', registers }),
    timeTo: new Histogram({ name: 'medic_time_to_seconds', help: "Seconds from an incident's first event (its log time; Medic's opening time when that stamp is unparseable, later than the opening, or over a day older: a replay of old logs) to its card, decision, push, merge and verified quiet, per service", labelNames: ['service', 'milestone'], buckets: [10, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86_400, 3 * 86_400, 7 * 86_400], registers }),
  };
}
