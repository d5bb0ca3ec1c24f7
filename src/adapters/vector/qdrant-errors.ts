import { QdrantClientResourceExhaustedError, QdrantClientTimeoutError } from '@qdrant/js-client-rest';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** The HTTP status and Qdrant's own `status.error` text, when the failure was an HTTP answer. */
function httpFailure(error: unknown): { status: number; message?: string } | undefined {
  if (!error || typeof error !== 'object' || typeof (error as { status?: unknown }).status !== 'number') return undefined;
  // The client's ApiError carries the parsed body: {"status":{"error":"…"}}.
  const data = (error as { data?: { status?: { error?: unknown } } }).data;
  const message = typeof data?.status?.error === 'string' ? data.status.error : undefined;
  return { status: (error as { status: number }).status, message };
}

/** Turns whatever the Qdrant client threw into a coded error that says what to check next. */
export function asQdrantError(error: unknown, what: string, url: string): MedicError {
  if (error instanceof MedicError) return error;
  if (error instanceof QdrantClientResourceExhaustedError) {
    return new MedicError(ErrorCode.UpstreamUnavailable, `Qdrant is rate limiting ${what}; retry after ${error.retry_after}s.`, { transient: true, cause: error });
  }
  if (error instanceof QdrantClientTimeoutError) {
    return new MedicError(ErrorCode.UpstreamUnavailable, `Qdrant at ${url} timed out during ${what}; check that it is healthy.`, { transient: true, cause: error });
  }
  const http = httpFailure(error);
  if (http && (http.status === 401 || http.status === 403)) {
    return new MedicError(ErrorCode.Unauthorized, `Qdrant at ${url} answered ${http.status} to ${what}: check QDRANT_API_KEY.`, { cause: error });
  }
  if (http && (http.status === 429 || http.status >= 500)) {
    return new MedicError(ErrorCode.UpstreamUnavailable, `Qdrant at ${url} answered ${http.status} to ${what}${http.message ? `: ${http.message}` : ''}; Medic will retry.`, { transient: true, cause: error });
  }
  if (http) {
    return new MedicError(ErrorCode.UpstreamRejected, `Qdrant at ${url} rejected ${what} (${http.status}${http.message ? `: ${http.message}` : ''}); check QDRANT_COLLECTION and the Qdrant version.`, { cause: error });
  }
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return new MedicError(ErrorCode.UpstreamUnavailable, `Qdrant at ${url} is unreachable during ${what} (${reason}): check QDRANT_URL and that Qdrant is running.`, { transient: true, cause: error });
}
