/** The Loghub-2k benchmark data (../shared/data/loghub-2k beside the repository, or MEDIC_LOGHUB_DIR). */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const LOGHUB_DIR = process.env.MEDIC_LOGHUB_DIR ?? resolve(import.meta.dirname, '../../shared/data/loghub-2k');

export interface LoghubRow {
  content: string;
  eventId: string;
  template: string;
}

export interface LoghubSystem {
  system: string;
  rows: LoghubRow[];
}

/** RFC 4180 CSV: quoted fields may hold commas, newlines and doubled quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === '\n') {
      row.push(field);
      field = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Every system's rows (Content, EventId, EventTemplate), sorted by system name. */
export async function loadLoghub(dir = LOGHUB_DIR): Promise<LoghubSystem[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('_2k.log_structured.csv')).sort();
  return Promise.all(
    files.map(async (file) => {
      const [header = [], ...rows] = parseCsv(await readFile(join(dir, file), 'utf8'));
      const [content, eventId, template] = ['Content', 'EventId', 'EventTemplate'].map((name) => header.indexOf(name)) as [number, number, number];
      if (Math.min(content, eventId, template) < 0) throw new Error(`${file}: the CSV lacks Content, EventId or EventTemplate`);
      return {
        system: file.replace(/_2k\.log_structured\.csv$/, ''),
        rows: rows.filter((r) => r.length >= header.length).map((r) => ({ content: r[content] ?? '', eventId: r[eventId] ?? '', template: r[template] ?? '' })),
      };
    }),
  );
}
