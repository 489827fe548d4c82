/**
 * Decode failures as the contract's `details`: every problem, each with its JSON path written
 * like `variations[1].value` (no leading `$`). Both HTTP lanes use this, so a bad request gets
 * the same 400 body whichever lane answered it.
 */
import * as ParseResult from "effect/ParseResult"
import type { ProblemDetail } from "./Errors.js"
import * as Errors from "./Errors.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { inWords } from "./Wording.js"

export const REQUEST_INVALID = Messages.requestInvalid

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

const EXPECTED = /^Expected (.+), actual (.+)$/s

/**
 * One problem per path where a union produced several "Expected X, actual Y" issues (an optional
 * field gives "Expected string" and "Expected undefined"; a literal union one line per literal):
 * they become one problem, without the `undefined` of optional fields. Every message is then put
 * in words (Wording.ts), so no 400 shows Effect Schema's notation.
 */
export const problemsOf = (issues: ReadonlyArray<Issue>): ReadonlyArray<ProblemDetail> => {
  const byPath = new Map<string, Array<string>>()
  for (const issue of issues) {
    const path = formatPath(issue.path)
    const messages = byPath.get(path)
    if (messages === undefined) byPath.set(path, [issue.message])
    else if (!messages.includes(issue.message)) messages.push(issue.message)
  }
  const out: Array<ProblemDetail> = []
  for (const [path, messages] of byPath) {
    const parsed = messages.map((m) => EXPECTED.exec(m))
    if (messages.length > 1 && parsed.every((m) => m !== null && m[2] === parsed[0]![2])) {
      const expected = parsed.map((m) => m![1]).filter((e) => e !== "undefined")
      out.push({ path, message: inWords(`Expected ${expected.join(" | ")}, actual ${parsed[0]![2]}`) })
    } else {
      const meaningful = messages.length > 1 ? messages.filter((m) => !m.startsWith("Expected undefined,")) : messages
      for (const message of meaningful) out.push({ path, message: inWords(message) })
    }
  }
  return out
}

/** A ParseError (from `Schema.decodeUnknownEither`) as our 400 envelope. */
export const fromParseError = (error: ParseResult.ParseError, prefix: ReadonlyArray<PropertyKey> = []): Errors.BadRequest =>
  Errors.badRequest(
    REQUEST_INVALID,
    problemsOf(ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => ({ path: [...prefix, ...i.path], message: i.message })))
  )
