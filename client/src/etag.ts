import { errorBodyOf } from './client.ts';

/** A call's answer as openapi-fetch gives it. */
export interface Answer {
  response: Response;
  error?: unknown;
}

/** The strong `ETag` a read of a versioned record carries (docs/conventions.md §5); undefined without one. */
export const etagOf = (response: Response): string | undefined => response.headers.get('ETag') ?? undefined;

/** The `If-Match` header of a write conditioned on `etag`. */
export const ifMatch = (etag: string): Record<string, string> => ({ 'If-Match': etag });

/** A conditional write lost to another writer: `409 VersionConflict` (docs/conventions.md §5; the service never answers 412). */
export const isVersionConflict = (answer: Answer): boolean =>
  answer.response.status === 409 && errorBodyOf(answer.error)?.exception === 'VersionConflict';

export interface Update<T, B, W extends Answer> {
  /** Reads the record; its answer must carry the ETag. */
  read: () => Promise<Answer & { data?: T }>;
  /** Writes `next` with `ifMatch(etag)`. */
  write: (next: B, etag: string) => Promise<W>;
  /** The body to write, made from the record as read: again from a fresh read after a conflict. */
  change: (current: T) => B;
  /** Reads and writes at most this often (default 5). */
  attempts?: number;
}

/**
 * Read-modify-write under optimistic concurrency: read the record and its ETag, apply `change`, write with `If-Match`;
 * when another writer got in between (`409 VersionConflict`), read again and apply the change to what is there now.
 * Answers the last write (its conflict, when every attempt lost one) and how many were made; a failed read throws.
 */
export async function updateWithETag<T, B, W extends Answer>(update: Update<T, B, W>): Promise<W & { attempts: number }> {
  const attempts = update.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const read = await update.read();
    const etag = etagOf(read.response);
    if (read.data === undefined || etag === undefined) {
      throw new Error(`read for an update answered ${read.response.status} ${read.response.statusText} without a body and ETag`);
    }
    const written = await update.write(update.change(read.data), etag);
    if (!isVersionConflict(written) || attempt >= attempts) return { ...written, attempts: attempt };
  }
}
