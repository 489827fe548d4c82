/**
 * Failures of the OFREP routes in OFREP's own bodies (not Flagport's envelope), the one place
 * that maps them. OFREP 0.3.0 declares 400 `{key, errorCode, errorDetails}` (PARSE_ERROR,
 * INVALID_CONTEXT, GENERAL...), 404 `{key, errorCode: "FLAG_NOT_FOUND", errorDetails}` on the
 * single-flag route, 401 and 403 without a body schema, and 500 `{errorDetails}`; the bulk route's
 * 400 has no `key`. Every body here has `errorCode` and `errorDetails` (GENERAL where no
 * OpenFeature code fits), and `key` on the single-flag route, so OFREP providers read them all.
 *
 * Flagport's own failures keep their meaning: a 400 of the policy (no environment, a global key)
 * or an unknown environment is INVALID_CONTEXT (the environment is part of what OFREP calls the
 * context), a body not JSON by its content type is a 400 PARSE_ERROR, one over 1 MiB a 413
 * PARSE_ERROR (the status the transport closes the connection on), 401/403/500 keep
 * their status with the envelope's message as `errorDetails`.
 */
import type { ApiError } from "../shared/Errors.js"
import * as Errors from "../shared/Errors.js"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"

export type OfrepErrorCode = "PARSE_ERROR" | "INVALID_CONTEXT" | "FLAG_NOT_FOUND" | "GENERAL"

/** A failure already in OFREP's terms (thrown by the OFREP decoding and lookups). */
export class OfrepFailure extends Error {
  constructor(
    readonly status: 400 | 404 | 413,
    readonly errorCode: OfrepErrorCode,
    readonly errorDetails: string
  ) {
    super(errorDetails)
  }
}

export const parseError = (details: string) => new OfrepFailure(400, "PARSE_ERROR", details)
export const invalidContext = (details: string) => new OfrepFailure(400, "INVALID_CONTEXT", details)
export const flagNotFound = (flagKey: string, environment: string) =>
  new OfrepFailure(404, "FLAG_NOT_FOUND", `No flag '${flagKey}' in environment '${environment}'`)

/**
 * What a policy problem means on an OFREP route, by the field it names: OFREP has no field for
 * either, so the detail says what to do instead.
 */
const POLICY_PROBLEMS: Readonly<Record<string, string>> = {
  environment: "No environment: send the Flagport-Environment header, or use an API key bound to an environment",
  projectId: "A global server key names no project on OFREP routes: use a key scoped to the project"
}

const detailsOf = (error: ApiError): string => {
  const { details, message } = Errors.envelopeOf(error).error
  if (details === undefined || details.length === 0) return message
  for (const problem of details) {
    const known = POLICY_PROBLEMS[problem.path]
    if (known !== undefined) return known
  }
  return `${message} ${details.map((p) => (p.path === "" ? p.message : `${p.path}: ${p.message}`)).join("; ")}`
}

/** An envelope error in OFREP's terms. */
const fromApiError = (error: ApiError): { readonly status: number; readonly errorCode: OfrepErrorCode; readonly errorDetails: string } => {
  const status = Errors.statusOf(error)
  const errorDetails = detailsOf(error)
  switch (status) {
    case 400:
    case 404: // an unknown project or environment (an unknown flag is an OfrepFailure)
      return { status: 400, errorCode: "INVALID_CONTEXT", errorDetails }
    case 413: // kept: the transport closes the connection after it, the rest of the body unread
      return { status: 413, errorCode: "PARSE_ERROR", errorDetails }
    case 415:
      return { status: 400, errorCode: "PARSE_ERROR", errorDetails }
    default:
      return { status, errorCode: "GENERAL", errorDetails }
  }
}

const JSON_HEADERS = { "content-type": "application/json" } as const

/**
 * The OFREP answer to a failure: `flagKey` on the single-flag route (its bodies carry `key`),
 * undefined on the bulk route. `toApiError` maps anything that is not an OfrepFailure (and logs
 * what deserves it) as on every other route.
 */
export const ofrepErrorResponse = (error: unknown, flagKey: string | undefined, toApiError: (error: unknown) => ApiError): LaneResponse => {
  const failure = error instanceof OfrepFailure ? error : fromApiError(toApiError(error))
  const body = flagKey === undefined
    ? { errorCode: failure.errorCode, errorDetails: failure.errorDetails }
    : { key: flagKey, errorCode: failure.errorCode, errorDetails: failure.errorDetails }
  return { status: failure.status, headers: JSON_HEADERS, body: JSON.stringify(body) }
}
