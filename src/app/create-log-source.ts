import { createFileLogSource } from '../adapters/file-logs/file-log-source.js';
import { splunkOptionsFromEnv } from '../adapters/splunk/options-from-env.js';
import { createSplunkLogSource } from '../adapters/splunk/splunk-log-source.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type { LogSource } from '../ports/log-source.js';
import type { MedicPaths } from './paths.js';

/** Splunk when SPLUNK_URL is set, files of JSON lines or plain logs under the log directory otherwise. */
export function createLogSource(config: Config, paths: MedicPaths, logger: Logger): LogSource {
  const onInvalid = (sourceId: string, reason: string) => logger.warn({ sourceId, reason }, 'skipped a log record');
  const splunk = splunkOptionsFromEnv(config, { correlationFields: config.MEDIC_CORRELATION_FIELDS, onInvalid });
  return splunk
    ? createSplunkLogSource(splunk)
    : createFileLogSource({ dir: paths.logs, correlationFields: config.MEDIC_CORRELATION_FIELDS, onInvalid });
}
