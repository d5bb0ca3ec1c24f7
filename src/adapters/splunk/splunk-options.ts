/** How Medic authenticates to Splunk's management port. */
export type SplunkAuth =
  | { kind: 'token'; token: string }
  | { kind: 'basic'; username: string; password: string }
  /** Logs in for a session key and logs in again when Splunk says the key expired. */
  | { kind: 'session'; username: string; password: string };

export interface SplunkClientOptions {
  /** Management port base URL, e.g. https://splunk.example.com:8089 */
  url: string;
  auth: SplunkAuth;
  /** Verify the server certificate (default true). */
  tlsVerify?: boolean;
  /** PEM of a private CA that signed the server certificate. */
  ca?: string;
  connectTimeoutMs?: number;
  /** Longest silence while waiting for headers or between stream chunks. */
  readTimeoutMs?: number;
  /** Seconds after which Splunk cancels a search nobody is reading any more. */
  autoCancelS?: number;
  /** 'auto' uses the v2 export and falls back to v1 search jobs when the server has no v2. */
  api?: 'auto' | 'export' | 'jobs';
  retries?: number;
  retryBaseMs?: number;
  /** Results page size on the job path. */
  pageSize?: number;
}

export interface SplunkLogSourceOptions {
  client: SplunkClientOptions;
  /** The error search, e.g. `search index=main (level=ERROR OR status=ERROR)`. Operator-trusted. */
  search: string;
  /** The search the log window narrows, e.g. `search index=main`. Operator-trusted. */
  windowSearch: string;
  correlationFields: string[];
  sessionFields?: string[];
  serviceFields?: string[];
  /** A field carrying a globally unique event id; default identity is index + _cd. */
  idField?: string;
  overlapS?: number;
  initialLookbackS?: number;
  /** How old (event time) a late-arriving event may be and still be found. */
  maxEventAgeS?: number;
  maxEventsPerPoll?: number;
  /** Rows that cannot become an ErrorEvent are skipped and reported here; they never stop a poll. */
  onInvalid?: (sourceId: string, reason: string) => void;
  now?: () => number;
}
