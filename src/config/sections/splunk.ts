import { z } from 'zod';
import { boolFrom, intFrom, listFrom, optionalString, urlString } from '../env-helpers.js';

/**
 * The Splunk log source. Setting SPLUNK_URL switches it on; this shape is merged into the
 * schema. Credentials: SPLUNK_TOKEN (Bearer), or SPLUNK_USERNAME + SPLUNK_PASSWORD (session key by
 * default, Basic with SPLUNK_AUTH=basic).
 */
export const splunkEnv = {
  SPLUNK_URL: urlString,
  SPLUNK_AUTH: z.enum(['auto', 'token', 'session', 'basic']).default('auto'),
  SPLUNK_TOKEN: optionalString,
  SPLUNK_USERNAME: optionalString,
  SPLUNK_PASSWORD: optionalString,
  SPLUNK_TLS_VERIFY: boolFrom(true),
  SPLUNK_CA_FILE: optionalString,
  SPLUNK_SEARCH: z.string().default('search index=main (level=ERROR OR status=ERROR)'),
  SPLUNK_WINDOW_SEARCH: z.string().default('search index=main'),
  SPLUNK_SEARCH_API: z.enum(['auto', 'export', 'jobs']).default('auto'),
  SPLUNK_OVERLAP_S: intFrom(300, 0, 86_400),
  SPLUNK_INITIAL_LOOKBACK_S: intFrom(900, 1, 30 * 86_400),
  SPLUNK_MAX_EVENT_AGE_S: intFrom(86_400, 60, 365 * 86_400),
  SPLUNK_MAX_EVENTS_PER_POLL: intFrom(10_000, 1, 1_000_000),
  SPLUNK_ID_FIELD: optionalString,
  SPLUNK_SERVICE_FIELDS: listFrom(['service', 'app', 'sourcetype', 'host', 'source']),
  SPLUNK_SESSION_FIELDS: listFrom(['sessionId', 'session_id']),
  SPLUNK_CONNECT_TIMEOUT_MS: intFrom(5_000, 100),
  SPLUNK_READ_TIMEOUT_MS: intFrom(60_000, 100),
  SPLUNK_AUTO_CANCEL_S: intFrom(120, 0),
  SPLUNK_RETRIES: intFrom(3, 0, 10),
  /** Optional: the audit stream copied to the HTTP Event Collector (its own port, 8088 by default). */
  SPLUNK_HEC_URL: urlString,
  SPLUNK_HEC_TOKEN: optionalString,
  SPLUNK_HEC_INDEX: optionalString,
  SPLUNK_HEC_SOURCETYPE: z.string().default('medic:audit'),
  SPLUNK_HEC_INTERVAL_MS: intFrom(5_000, 200),
};

export type SplunkEnv = z.infer<z.ZodObject<typeof splunkEnv>>;
