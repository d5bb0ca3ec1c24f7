import { pino, type Logger } from 'pino';
import { redactDeep, redactSecrets } from '../domain/untrusted/redact.js';

export type { Logger };

const SECRET_KEYS = ['token', 'password', 'secret', 'apiKey', 'authorization', 'privateKey', 'signingSecret', 'botToken', 'appToken'];

/**
 * JSON logs with secrets removed twice over: known secret-bearing keys are censored, and every
 * string message is passed through the same redaction that guards Slack, git and the model.
 */
export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { app: 'medic' },
      redact: { paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`)], censor: '[REDACTED]' },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((arg: unknown) => (typeof arg === 'string' ? redactSecrets(arg) : arg));
          return method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
      formatters: { level: (label) => ({ level: label }), log: (object) => redactDeep(object) as Record<string, unknown> },
      serializers: { err: (err: Error) => ({ type: err.name, message: redactSecrets(err.message), code: (err as { code?: string }).code }) },
    },
    options.destination ?? process.stdout,
  );
}
