import { z } from 'zod';

/** Empty strings in .env mean "not set". */
export const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const intFrom = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.coerce.number().int().min(min).max(max));

export const boolFrom = (fallback: boolean) =>
  z.preprocess((v) => {
    if (v === '' || v === undefined) return fallback;
    if (typeof v === 'string') return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
    return v;
  }, z.boolean());

export const listFrom = (fallback: string[] = []) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? fallback : String(v as string).split(',').map((s) => s.trim()).filter(Boolean)),
    z.array(z.string()),
  );

export const urlString = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
