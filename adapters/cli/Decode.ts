import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { InvalidRequest } from "../../src/domain/Errors.js"

/**
 * Validates command-line input with the same schemas the HTTP API decodes with, so the CLI
 * cannot create a project id or an environment key that the API would refuse.
 */
export const decode =
  <A, I>(schema: Schema.Schema<A, I>, what: string) =>
  (input: unknown): Effect.Effect<A, InvalidRequest> =>
    Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "error" })(input).pipe(
      Effect.mapError(
        (error) =>
          new InvalidRequest({
            message: `invalid ${what}`,
            details: ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
              path: issue.path.map(String).join("."),
              message: issue.message
            }))
          })
      )
    )
