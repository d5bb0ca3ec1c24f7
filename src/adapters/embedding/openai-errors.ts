import OpenAI from 'openai';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** Turns what the openai client threw (after its own retries) into a coded, actionable error. */
export function asEmbeddingError(error: unknown, where: string, model: string): MedicError {
  if (error instanceof MedicError) return error;
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return new MedicError(ErrorCode.Unauthorized, `The embeddings endpoint ${where} answered ${error.status}: check OPENAI_API_KEY.`, { cause: error });
  }
  if (error instanceof OpenAI.RateLimitError || error instanceof OpenAI.InternalServerError || error instanceof OpenAI.APIConnectionError) {
    const what = error instanceof OpenAI.APIConnectionError ? 'is unreachable' : `answered ${error.status}`;
    return new MedicError(ErrorCode.UpstreamUnavailable, `The embeddings endpoint ${where} ${what} after retries; check OPENAI_BASE_URL or retry later.`, {
      transient: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    return new MedicError(
      ErrorCode.UpstreamRejected,
      `The embeddings endpoint ${where} rejected model "${model}" (${error.status ?? 'no status'}: ${error.message}); check MEDIC_EMBEDDING_MODEL.`,
      { cause: error },
    );
  }
  return new MedicError(ErrorCode.Internal, `Embedding failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error, transient: true });
}
