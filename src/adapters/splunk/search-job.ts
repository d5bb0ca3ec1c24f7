import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { SplunkRow } from './export-stream.js';
import { parseMessages, summarize } from './splunk-errors.js';

/** The calls the job path needs; the client supplies them with auth, retry of a 401 and error mapping. */
export interface JobCalls {
  json(method: 'GET' | 'POST' | 'DELETE', path: string, query?: Record<string, string>, form?: Record<string, string>): Promise<unknown>;
}

export interface JobSearch {
  form: Record<string, string>;
  pageSize: number;
  deadlineMs: number;
}

interface JobEntry {
  entry?: { content?: { isDone?: unknown; dispatchState?: unknown; messages?: unknown } }[];
}

const JOBS = '/services/search/jobs';

/**
 * The fallback for servers without the v2 export: create a job, wait for it, page its results with
 * count/offset (count=0 would mean "all", so pages are explicit), and always delete the job so it
 * never holds a slot of the concurrent-search quota. Each page is handed to `onRows` as it arrives.
 */
export async function runSearchJob(calls: JobCalls, search: JobSearch, sleep: (ms: number) => Promise<void>, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void> {
  const created = (await calls.json('POST', JOBS, undefined, { ...search.form, output_mode: 'json', exec_mode: 'normal' })) as { sid?: unknown };
  if (typeof created.sid !== 'string' || !/^[\w.:-]+$/.test(created.sid)) {
    throw new MedicError(ErrorCode.UpstreamRejected, 'Splunk created a search job without a usable sid; check SPLUNK_URL points at splunkd.');
  }
  const job = `${JOBS}/${encodeURIComponent(created.sid)}`;
  try {
    const started = Date.now();
    for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
      const state = (await calls.json('GET', job, { output_mode: 'json' })) as JobEntry;
      const content = state.entry?.[0]?.content ?? {};
      if (content.dispatchState === 'FAILED') {
        const said = summarize(parseMessages(JSON.stringify({ messages: content.messages ?? [] })));
        throw new MedicError(ErrorCode.UpstreamRejected, `Splunk's search job failed${said ? ` (${said})` : ''}; check SPLUNK_SEARCH.`);
      }
      if (content.isDone === true || content.isDone === '1') break;
      if (Date.now() - started > search.deadlineMs) {
        throw new MedicError(ErrorCode.UpstreamUnavailable, `Splunk's search job did not finish within ${search.deadlineMs} ms; the poll will retry.`, { transient: true });
      }
      await sleep(wait);
    }
    for (let offset = 0; ; offset += search.pageSize) {
      const page = (await calls.json('GET', `${job}/results`, { output_mode: 'json', count: String(search.pageSize), offset: String(offset) })) as { results?: unknown };
      const results = Array.isArray(page.results) ? (page.results as SplunkRow[]) : [];
      if (results.length > 0) await onRows(results);
      if (results.length < search.pageSize) return;
    }
  } finally {
    await calls.json('DELETE', job, { output_mode: 'json' }).catch(() => undefined);
  }
}
