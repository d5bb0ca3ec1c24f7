import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { boolFrom, intFrom, listFrom, optionalString, urlString } from './env-helpers.js';
import { catalogEnv } from './sections/catalog.js';
import { codeHostEnv, codeHostProblems } from './sections/code-host.js';
import { GatewayEnv } from './sections/gateway.js';
import { llmEnv } from './sections/llm.js';
import { redisEnv, redisProblems } from './sections/redis.js';
import { retrievalEnv } from './sections/retrieval.js';
import { slackEnv } from './sections/slack.js';
import { splunkEnv } from './sections/splunk.js';
import { stormEnv } from './sections/storm.js';
import { reliabilityEnv } from './sections/reliability.js';
import { verifyEnv } from './sections/verify.js';

/**
 * Every variable Medic reads, with its default. `.env.example` documents each one; nothing else in
 * the code reads process.env. Real services switch on by configuration alone.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: intFrom(3000, 0, 65_535),
  /** Where the web role listens (Slack events, health, metrics): loopback unless set (0.0.0.0 in a container). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** When set, `/metrics` answers only `Authorization: Bearer <token>`. */
  MEDIC_METRICS_TOKEN: optionalString,
  MEDIC_DATA_DIR: z.string().default('.medic'),
  MEDIC_SAMPLE_DIR: z.string().default('data'),

  ...redisEnv,
  ...verifyEnv,
  MEDIC_EMBEDDED_REDIS: boolFrom(true),

  MEDIC_POLL_INTERVAL_MS: intFrom(15_000, 200),
  MEDIC_LOG_DIR: optionalString,
  MEDIC_WINDOW_BEFORE_MS: intFrom(300_000, 0),
  MEDIC_WINDOW_AFTER_MS: intFrom(300_000, 0),
  MEDIC_WINDOW_LIMIT: intFrom(200, 1, 10_000),
  MEDIC_CORRELATION_FIELDS: listFrom(['txn_id', 'orderNumber', 'requestId']),

  MEDIC_DOCS_DIR: optionalString,
  MEDIC_SIMILAR_DOCS: intFrom(5, 1, 50),

  MEDIC_LLM: z.enum(['auto', 'openai', 'offline', 'scripted']).default('auto'),
  MEDIC_LLM_SCRIPT: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: urlString,
  MEDIC_LLM_MODEL: z.string().default('gpt-4o-mini'),
  MEDIC_LLM_MODEL_RCA: optionalString,
  MEDIC_LLM_MODEL_RECOMMEND: optionalString,
  MEDIC_LLM_MODEL_FIX: optionalString,
  MEDIC_LLM_TIMEOUT_MS: intFrom(60_000, 1_000),
  MEDIC_LLM_RETRIES: intFrom(3, 0, 10),
  /** json_schema (strict structured output) or json_object for servers that ignore schemas. */
  MEDIC_LLM_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object']).default('json_schema'),
  /** Token budgets; 0 means unlimited. */
  MEDIC_TOKEN_BUDGET_INCIDENT: intFrom(40_000, 0),
  MEDIC_TOKEN_BUDGET_DAY: intFrom(2_000_000, 0),

  MEDIC_CHAT: z.enum(['auto', 'console', 'slack']).default('auto'),
  MEDIC_SLACK_CHANNEL: z.string().default('incidents'),
  MEDIC_APPROVERS: listFrom(['local-operator']),
  MEDIC_OPERATOR_ID: z.string().default('local-operator'),

  MEDIC_REPO_REMOTE: optionalString,
  /** Absent: the branch the remote's HEAD names (else `main`). */
  MEDIC_REPO_BRANCH: optionalString,
  MEDIC_RECENT_CHANGES_DAYS: intFrom(14, 1, 3650),
  /** How often a fix PR's check runs are looked at, and for how long (looks). */
  MEDIC_CHECKS_INTERVAL_S: intFrom(60, 1, 3_600),
  MEDIC_CHECKS_MAX_LOOKS: intFrom(120, 1, 10_000),

  MEDIC_JOB_LOCK_MS: intFrom(30_000, 1_000),
  /**
   * How long a stopping worker waits for its running jobs. Short: every step is checkpointed, so a
   * job cut off here resumes on the next worker, and `docker stop` should not wait on an LLM call.
   */
  MEDIC_SHUTDOWN_TIMEOUT_MS: intFrom(1_500, 100),
  /** Analyses one worker process runs at once (a storm's incidents are analysed side by side). */
  MEDIC_ANALYZE_CONCURRENCY: intFrom(4, 1, 64),
  /**
   * Proposal checks one process runs at once (default: half its cores, at least one). A check is a
   * compiler or a test run; a storm's checks beyond this wait their turn instead of sharing the cores.
   */
  MEDIC_CHECK_CONCURRENCY: intFrom(Math.max(1, Math.floor(availableParallelism() / 2)), 1, 64),
  /** Fault injection for crash-safety drills: SIGKILL the worker after these steps persist. */
  MEDIC_CRASH_AFTER: listFrom([]),

  ...splunkEnv,
  ...slackEnv,
  ...codeHostEnv,
  ...stormEnv,
  ...llmEnv,
  ...retrievalEnv,
  ...GatewayEnv,
  ...catalogEnv,
  ...reliabilityEnv,
}).superRefine((env, ctx) => {
  for (const problem of [...codeHostProblems(env), ...redisProblems(env)]) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  if (env.SPLUNK_HEC_URL && !env.SPLUNK_HEC_TOKEN) ctx.addIssue({ code: 'custom', path: ['SPLUNK_HEC_TOKEN'], message: 'set the HEC token (a GUID) to forward the audit stream to SPLUNK_HEC_URL' });
  if (env.SLACK_BOT_TOKEN && env.MEDIC_CHAT !== 'console' && !env.SLACK_SIGNING_SECRET && !env.SLACK_APP_TOKEN) {
    ctx.addIssue({ code: 'custom', path: ['SLACK_SIGNING_SECRET'], message: 'set the app\'s signing secret (or SLACK_APP_TOKEN for Socket Mode) so Medic can verify Slack\'s requests' });
  }
});

export type Config = z.infer<typeof EnvSchema>;
