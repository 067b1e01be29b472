/**
 * Writers of one stream serialize on its counter; each round one of them wins. Twenty rounds with
 * jittered backoff (at most ~2.5 s of waiting) let a dozen concurrent writers all finish.
 */
export const MAX_ATTEMPTS = 20;

/** Full jitter: a random wait up to 10 ms * 2^attempt, capped at 250 ms. */
export const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 10 * 2 ** attempt)));
