import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Cause from "effect/Cause"
import * as Option from "effect/Option"
/**
 * Turns whatever made a command fail into one line for stderr and an exit code.
 * Users of a CLI want "what went wrong" in a sentence, not an Effect cause tree or a stack trace;
 * set FLAGPORT_DEBUG=1 to get the full cause when reporting a bug.
 */

/**
 * Exit codes (docs/guide/cli.md's table): 1 when a command line that was understood could not be
 * carried out (a missing file included), 2 when the command line itself is wrong (it cannot be
 * parsed, or asks for what the command refuses: UsageError).
 */
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

export interface Report {
  readonly line: string
  readonly exitCode: number
}

const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, "")

const flatten = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim()

const messageOf = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (typeof value === "object" && value !== null && "message" in value) {
    const message = (value as { message: unknown }).message
    if (typeof message === "string" && message.length > 0) return message
  }
  return undefined
}

const tagOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && "_tag" in value && typeof value._tag === "string"
    ? value._tag
    : undefined

/** A message followed by the messages of its causes, skipping repeats (driver errors nest). */
const describe = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const message = messageOf(current)
    if (message !== undefined && !parts.some((part) => part.includes(message))) parts.push(flatten(message))
    current = typeof current === "object" && "cause" in current ? (current as { cause: unknown }).cause : undefined
  }
  if (parts.length === 0) parts.push(tagOf(error) ?? String(error))
  return parts.join(": ")
}

/** The `details` of an InvalidRequest, as `path: message` pairs on the same line. */
const detailsOf = (error: unknown): string => {
  if (typeof error !== "object" || error === null || !("details" in error)) return ""
  const details = (error as { details: unknown }).details
  if (!Array.isArray(details) || details.length === 0) return ""
  const items = details.map((problem: { path?: unknown; message?: unknown }) =>
    typeof problem.path === "string" && problem.path.length > 0 ? `${problem.path}: ${String(problem.message)}` : String(problem.message)
  )
  return ` (${items.join("; ")})`
}

/**
 * `usageExitCode`: 2 unless the command line asked for `--detailed-exitcode`, where 2 means "the
 * plan has changes" and a command line that cannot be parsed must not be mistaken for it (1).
 */
export const report = (cause: Cause.Cause<unknown>, usageExitCode: number = EXIT_USAGE): Report => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    // The command said what it had to (ExitWith.ts): only its exit code remains.
    if (tagOf(error) === "ExitWith") return { line: "", exitCode: (error as { readonly code: number }).code }
    // A command line @effect/cli could not parse ("Missing argument <ID>", "Expected to find option: '--project'").
    if (ValidationError.isValidationError(error)) return { line: `error: ${flatten(stripAnsi(HelpDoc.toAnsiText(error.error)))}`, exitCode: usageExitCode }
    if (tagOf(error) === "UsageError") return { line: `error: ${describe(error)}`, exitCode: usageExitCode }
    return { line: `error: ${describe(error)}${detailsOf(error)}`, exitCode: EXIT_FAILURE }
  }
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return { line: `error: unexpected failure: ${describe(defect.value)}`, exitCode: EXIT_FAILURE }
  return { line: "error: interrupted", exitCode: EXIT_FAILURE }
}
