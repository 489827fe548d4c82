/**
 * An API refusal, spread over the form: each `details` entry belongs to the field its path
 * names (`rules[0].rollout.variations`). A field shows the problems at its own path; the form's
 * summary at its top repeats the message and every problem, so none is lost whatever the path.
 */
import { ApiError, type Problem } from "./api.js"

export interface Problems {
  readonly message: string | null
  readonly details: ReadonlyArray<Problem>
  /** The API's status (0: not reached, null: no API answer), so a 412 can be told apart. */
  readonly status: number | null
}

export const NO_PROBLEMS: Problems = { message: null, details: [], status: null }

export const fromError = (error: unknown): Problems =>
  error instanceof ApiError
    ? { message: error.message, details: error.details, status: error.status }
    : { message: error instanceof Error ? error.message : String(error), details: [], status: null }

/** Someone changed the flag since it was loaded: the write named an older version (412). */
export const isConflict = (problems: Problems): boolean => problems.status === 412

/** Messages for exactly this path. */
export const at = (problems: Problems, path: string): ReadonlyArray<string> =>
  problems.details.filter((d) => d.path === path).map((d) => d.message)

/** Messages for this path and the paths inside it (`values` also takes `values[2]`). */
export const within = (problems: Problems, path: string): ReadonlyArray<string> =>
  problems.details
    .filter((d) => d.path === path || d.path.startsWith(`${path}[`) || d.path.startsWith(`${path}.`))
    .map((d) => (d.path === path ? d.message : `${d.path.slice(path.length).replace(/^\./, "")}: ${d.message}`))

