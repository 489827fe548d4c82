/**
 * Decode failures as the contract's `details`: every problem, each with its JSON path written
 * like `variations[1].value` (no leading `$`). Both HTTP lanes use this, so a bad request gets
 * the same 400 body whichever lane answered it.
 */
import { ParseResult } from "effect"
import type { ProblemDetail } from "./Errors.js"
import * as Errors from "./Errors.js"

export const REQUEST_INVALID = "The request is invalid."

/** `["variations", 1, "value"]` -> `variations[1].value`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = ""
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else out += out === "" ? String(segment) : `.${String(segment)}`
  }
  return out
}

export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export const problemsOf = (issues: ReadonlyArray<Issue>): ReadonlyArray<ProblemDetail> =>
  issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }))

/** A ParseError (from `Schema.decodeUnknownEither`) as our 400 envelope. */
export const fromParseError = (error: ParseResult.ParseError, prefix: ReadonlyArray<PropertyKey> = []): Errors.BadRequest =>
  Errors.badRequest(
    REQUEST_INVALID,
    problemsOf(ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => ({ path: [...prefix, ...i.path], message: i.message })))
  )
