import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { EnvSchema, type Config } from './schema.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { registerConfiguredSecrets } from '../domain/untrusted/known-secrets.js';

/** Reads `.env` (if present) under the real environment, which wins. */
export function readEnv(env: NodeJS.ProcessEnv = process.env, envFile = '.env'): Record<string, string | undefined> {
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  return { ...fromFile, ...env };
}

/** Validates the environment; a bad start lists every invalid variable and what to set. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (parsed.success) {
    // Every configured credential is redacted by value from then on, wherever it would appear.
    registerConfiguredSecrets(parsed.data);
    return parsed.data;
  }
  const lines = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const got = typeof issue.path[0] === 'string' && env[issue.path[0]] !== undefined ? ` (got "${redactValue(issue.path[0], env[issue.path[0]] ?? '')}")` : '';
    return `  - ${name}: ${issue.message}${got}`;
  });
  throw new MedicError(ErrorCode.ConfigInvalid, `Medic's configuration is invalid; set these variables (see .env.example):\n${lines.join('\n')}`);
}

function redactValue(name: string, value: string): string {
  return /KEY|TOKEN|SECRET|PASSWORD/i.test(name) ? '***' : value.slice(0, 80);
}
