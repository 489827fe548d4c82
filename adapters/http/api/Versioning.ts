/**
 * The declarations of optimistic concurrency on flags: `If-Match` on the writes (the flag's ETag,
 * or on a targeting write its environment's configuration's), and the query of a configuration's read.
 */
import * as Schema from "effect/Schema"
import { Text } from "../../../src/domain/definitions/Text.js"
import { strict } from "../shared/EvaluationRequests.js"

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

