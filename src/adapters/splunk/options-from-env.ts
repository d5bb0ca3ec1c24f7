import type { SplunkEnv } from '../../config/sections/splunk.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { SplunkAuth, SplunkLogSourceOptions } from './splunk-options.js';
import { readCaFile } from './splunk-log-source.js';

function authFrom(env: SplunkEnv): SplunkAuth {
  const kind = env.SPLUNK_AUTH === 'auto' ? (env.SPLUNK_TOKEN ? 'token' : 'session') : env.SPLUNK_AUTH;
  if (kind === 'token') {
    if (!env.SPLUNK_TOKEN) throw new MedicError(ErrorCode.ConfigInvalid, 'SPLUNK_AUTH=token needs SPLUNK_TOKEN (a Splunk authentication token, sent as Bearer).');
    return { kind, token: env.SPLUNK_TOKEN };
  }
  if (!env.SPLUNK_USERNAME || !env.SPLUNK_PASSWORD) {
    throw new MedicError(ErrorCode.ConfigInvalid, 'SPLUNK_URL is set but no credential is: set SPLUNK_TOKEN, or SPLUNK_USERNAME and SPLUNK_PASSWORD.');
  }
  return { kind, username: env.SPLUNK_USERNAME, password: env.SPLUNK_PASSWORD };
}

/** Maps validated config to the source's options; undefined when SPLUNK_URL is not set (files are used). */
export function splunkOptionsFromEnv(
  env: SplunkEnv,
  shared: { correlationFields: string[]; onInvalid?: SplunkLogSourceOptions['onInvalid'] },
): SplunkLogSourceOptions | undefined {
  if (!env.SPLUNK_URL) return undefined;
  return {
    client: {
      url: env.SPLUNK_URL,
      auth: authFrom(env),
      tlsVerify: env.SPLUNK_TLS_VERIFY,
      ca: env.SPLUNK_CA_FILE ? readCaFile(env.SPLUNK_CA_FILE) : undefined,
      connectTimeoutMs: env.SPLUNK_CONNECT_TIMEOUT_MS,
      readTimeoutMs: env.SPLUNK_READ_TIMEOUT_MS,
      autoCancelS: env.SPLUNK_AUTO_CANCEL_S,
      api: env.SPLUNK_SEARCH_API,
      retries: env.SPLUNK_RETRIES,
    },
    search: env.SPLUNK_SEARCH,
    windowSearch: env.SPLUNK_WINDOW_SEARCH,
    correlationFields: shared.correlationFields,
    sessionFields: env.SPLUNK_SESSION_FIELDS,
    serviceFields: env.SPLUNK_SERVICE_FIELDS,
    idField: env.SPLUNK_ID_FIELD,
    overlapS: env.SPLUNK_OVERLAP_S,
    initialLookbackS: env.SPLUNK_INITIAL_LOOKBACK_S,
    maxEventAgeS: env.SPLUNK_MAX_EVENT_AGE_S,
    maxEventsPerPoll: env.SPLUNK_MAX_EVENTS_PER_POLL,
    ...(shared.onInvalid ? { onInvalid: shared.onInvalid } : {}),
  };
}
