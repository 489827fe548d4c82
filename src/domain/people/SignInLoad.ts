/**
 * What one process lets unauthenticated sign-in traffic cost it (docs/guide/people.md, "Sign-in
 * under load"). Each password check is an Argon2id operation (about 19 MiB and tens of
 * milliseconds of a thread): a flood of made-up sign-ins must not take the threads, the memory or
 * the event loop that serve everything else. Two rules, both per process and in memory (they
 * bound this process's work; the failure limits of SignInLimit.ts are the ones in the database):
 *
 * - At most HASHES_IN_FLIGHT Argon2 operations run at once, and at most HASH_QUEUE more wait;
 *   beyond that a sign-in or setup is refused at once (503, `Retry-After: 1`) without any hashing.
 * - Each client address has a budget of ADDRESS_BURST attempts (sign-ins and setups together),
 *   one more every ADDRESS_REFILL_MS; an attempt beyond it is refused (429 with `Retry-After`)
 *   before any hashing or database write. A successful sign-in gives its attempt back, so people
 *   behind one address (an office) who type their passwords right are never held back.
 */

// One at a time leaves the other core of a small machine to the event loop (flags, evaluations,
// /health) during a flood; 8 waiting are served within a second or so (bench/LOG.md, "Sign-in flood").
export const HASHES_IN_FLIGHT = 1
export const HASH_QUEUE = 8
/** What a refusal for load asks the client to wait: the queue drains in well under a second. */
export const BUSY_RETRY_AFTER_SECONDS = 1

export const ADDRESS_BURST = 30
export const ADDRESS_REFILL_MS = 2_000

/** A client address's remaining attempts, as of `at` (epoch milliseconds). */
export interface AddressBudget {
  readonly tokens: number
  readonly at: number
}

const refilled = (budget: AddressBudget | undefined, nowMillis: number): AddressBudget => {
  if (budget === undefined) return { tokens: ADDRESS_BURST, at: nowMillis }
  const elapsed = Math.max(0, nowMillis - budget.at)
  return { tokens: Math.min(ADDRESS_BURST, budget.tokens + elapsed / ADDRESS_REFILL_MS), at: nowMillis }
}

/**
 * Takes one attempt from the budget: the budget after it, and `retryAfterSeconds` (whole, at
 * least 1) when there was none to take (the budget is then unchanged).
 */
export const takeAttempt = (
  budget: AddressBudget | undefined,
  nowMillis: number
): { readonly budget: AddressBudget; readonly retryAfterSeconds: number | null } => {
  const current = refilled(budget, nowMillis)
  if (current.tokens >= 1) return { budget: { tokens: current.tokens - 1, at: nowMillis }, retryAfterSeconds: null }
  return { budget: current, retryAfterSeconds: Math.max(1, Math.ceil(((1 - current.tokens) * ADDRESS_REFILL_MS) / 1000)) }
}

/** Gives one attempt back (a successful sign-in), up to the burst. */
export const giveBack = (budget: AddressBudget | undefined, nowMillis: number): AddressBudget => {
  const current = refilled(budget, nowMillis)
  return { tokens: Math.min(ADDRESS_BURST, current.tokens + 1), at: nowMillis }
}

/** Whether a budget has refilled completely by `nowMillis` (it can be forgotten: a new one is the same). */
export const isFull = (budget: AddressBudget, nowMillis: number): boolean => refilled(budget, nowMillis).tokens >= ADDRESS_BURST
