/**
 * Verification after the merge: how long a fixed family must stay quiet after the deploy, and
 * how often Medic looks for the merge and the deploy. Per-service settings (the catalog's
 * `verify:`) override the quiet window and name a deploy marker. Merged into EnvSchema.
 */
import { z } from 'zod';
import { boolFrom, intFrom } from '../env-helpers.js';

const optionalInt = (min: number, max: number) => z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(min).max(max).optional());

export const verifyEnv = {
  /** Watch a pushed fix to merged and deployed, then verify its family stopped (false: the loop ends at the PR). */
  MEDIC_VERIFY: boolFrom(true),
  /** Minutes the family must stay quiet after the deploy (default 30; 1 in the local sandbox, so a first run sees the verdict). */
  MEDIC_VERIFY_QUIET_MIN: optionalInt(1, 10_080),
  /** Seconds between two looks for the merge and the deploy (default 60; 5 in the local sandbox); slower the longer it waits. */
  MEDIC_VERIFY_INTERVAL_S: optionalInt(1, 3_600),
  /** The longest wait between two looks, however long the merge takes. */
  MEDIC_VERIFY_MAX_INTERVAL_S: intFrom(900, 1, 86_400),
  /** Days Medic keeps looking for the merge of a pushed fix. */
  MEDIC_VERIFY_MAX_DAYS: intFrom(30, 1, 365),
};
