import { Schema } from "effect"

/** The subject of an evaluation. `attributes` values are any JSON. */
export const EvaluationContext = Schema.Struct({
  key: Schema.String.pipe(Schema.minLength(1, { message: () => "must be a non-empty string" })),
  attributes: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type EvaluationContext = typeof EvaluationContext.Type
