/**
 * Optimistic concurrency on flags: `If-Match` on the writes (the flag's ETag, or on a targeting
 * write its environment's configuration's) as declared and as the handlers read it, and the query
 * of a configuration's read. The flags' and the environment copy's groups use it.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Text } from "../../../src/domain/definitions/Text.js"
import type { WriteOptions as FlagWriteOptions } from "../../../src/services/flags/Flags.js"
import * as Errors from "../shared/Errors.js"
import { strict } from "../shared/EvaluationRequests.js"
import { parseIfMatch } from "../shared/Versions.js"

/** Optimistic concurrency on the writes to a flag: the version (the flag's `ETag`) the change is based on. */
export const IfMatchHeaders = Schema.Struct({
  "if-match": Schema.optional(
    Schema.String.annotations({
      description: "The flag's ETag (its version, e.g. \"3\") the change is based on; 412 when it is no longer current. Without it the last writer wins."
    })
  )
})

/** The targeting write also takes its environment's configuration's `ETag`. */
export const TargetingIfMatchHeaders = Schema.Struct({
  "if-match": Schema.optional(
    Schema.String.annotations({
      description: "The ETag the change is based on: the flag's (\"3\": 412 when anything in the flag changed since) or this environment's targeting's (\"staging:3\", from GET .../targeting?environment=staging or a flag's `configs[].version`: 412 only when this environment's configuration, or the flag's variations, changed since). Without it the last writer wins."
    })
  )
})

/** `GET .../flags/{flagKey}/targeting?environment=`. */
export const TargetingQuery = strict(Schema.Struct({ environment: Text }))

/**
 * What `If-Match` requires, or the 400: the flag's version, or (only on a targeting write to
 * `environment`) that environment's configuration's version.
 */
export const ifMatchOf = (headers: { readonly "if-match"?: string | undefined }, targeting?: string) => {
  const parsed = parseIfMatch(headers["if-match"])
  if (parsed instanceof Errors.BadRequest) return Effect.fail(parsed)
  if (parsed.environment === undefined) return Effect.succeed<FlagWriteOptions>({ ifMatch: parsed.version })
  if (targeting === undefined) {
    return Effect.fail(Errors.badRequest("If-Match names the targeting of one environment; this write takes the flag's ETag, such as \"3\".", [
      { path: "If-Match", message: "expected the flag's ETag (GET .../flags/{flagKey})" }
    ]))
  }
  if (parsed.environment !== targeting) {
    return Effect.fail(Errors.badRequest(`If-Match names the targeting of '${parsed.environment}', but this write replaces the targeting of '${targeting}'.`, [
      { path: "If-Match", message: `expected the ETag of '${targeting}' (GET .../targeting?environment=${targeting}) or the flag's` }
    ]))
  }
  return Effect.succeed<FlagWriteOptions>({ ifMatchConfig: { environment: parsed.environment, version: parsed.version } })
}
