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

/**
 * The device lane (domain/people/DeviceCookie.ts): sign-ins presenting a valid device cookie for
 * their email hash in a lane of their own, DEVICE_HASHES_IN_FLIGHT at once and DEVICE_HASH_QUEUE
 * waiting, which no anonymous attempt enters; so a flood from any number of addresses, which
 * keeps the ordinary queue full, does not hold a person back. Each email has DEVICE_BURST lane
 * attempts, one more every DEVICE_REFILL_MS: a cookie (stolen, or an insider's own) can neither
 * fill the lane nor guess faster there than the slowed ordinary path; beyond them, or when the
 * lane is full, an attempt takes the ordinary queue.
 */
export const DEVICE_HASHES_IN_FLIGHT = 1
export const DEVICE_HASH_QUEUE = 4
export const DEVICE_BURST = 5
export const DEVICE_REFILL_MS = 60_000

/** A budget's size and how fast it refills. */
export interface BudgetRule {
  readonly burst: number
  readonly refillMs: number
}

/** A client address's attempts (sign-ins and setups). */
export const ADDRESS_RULE: BudgetRule = { burst: ADDRESS_BURST, refillMs: ADDRESS_REFILL_MS }
/** An email's attempts in the device lane. */
export const DEVICE_RULE: BudgetRule = { burst: DEVICE_BURST, refillMs: DEVICE_REFILL_MS }

/** A budget's remaining attempts (a client address's, an email's in the device lane), as of `at` (epoch milliseconds). */
export interface AddressBudget {
  readonly tokens: number
  readonly at: number
}

const refilled = (budget: AddressBudget | undefined, nowMillis: number, rule: BudgetRule): AddressBudget => {
  if (budget === undefined) return { tokens: rule.burst, at: nowMillis }
  const elapsed = Math.max(0, nowMillis - budget.at)
  return { tokens: Math.min(rule.burst, budget.tokens + elapsed / rule.refillMs), at: nowMillis }
}

/**
 * Takes one attempt from the budget: the budget after it, and `retryAfterSeconds` (whole, at
 * least 1) when there was none to take (the budget is then unchanged).
 */
export const takeAttempt = (
  budget: AddressBudget | undefined,
  nowMillis: number,
  rule: BudgetRule = ADDRESS_RULE
): { readonly budget: AddressBudget; readonly retryAfterSeconds: number | null } => {
  const current = refilled(budget, nowMillis, rule)
  if (current.tokens >= 1) return { budget: { tokens: current.tokens - 1, at: nowMillis }, retryAfterSeconds: null }
  return { budget: current, retryAfterSeconds: Math.max(1, Math.ceil(((1 - current.tokens) * rule.refillMs) / 1000)) }
}

/** Gives one attempt back (a successful sign-in), up to the burst. */
export const giveBack = (budget: AddressBudget | undefined, nowMillis: number): AddressBudget => {
  const current = refilled(budget, nowMillis, ADDRESS_RULE)
  return { tokens: Math.min(ADDRESS_BURST, current.tokens + 1), at: nowMillis }
}

/** Whether a budget has refilled completely by `nowMillis` (it can be forgotten: a new one is the same). */
export const isFull = (budget: AddressBudget, nowMillis: number, rule: BudgetRule = ADDRESS_RULE): boolean =>
  refilled(budget, nowMillis, rule).tokens >= rule.burst
