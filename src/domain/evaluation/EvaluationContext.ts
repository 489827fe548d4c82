import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

const isAttributeRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Attribute values are any JSON, so the record is taken as parsed, not rebuilt. Rebuilding it
 * (as `Schema.Record` does, by assignment) would turn an attribute named `__proto__` into the
 * object's prototype: the attribute would vanish and its fields would read as attributes. Taken
 * as is, `__proto__` is an ordinary attribute, as JSON.parse made it, on both HTTP lanes.
 */
export const Attributes = Schema.declare(isAttributeRecord, {
  // The name its 400 messages give it ("must be an object, not the number 5", adapters/http/shared/Wording.ts).
  title: "object",
  jsonSchema: { type: "object", required: [], properties: {}, additionalProperties: { title: "unknown" } }
})

/** The subject of an evaluation. `attributes` values are any JSON. */
export const EvaluationContext = Schema.Struct({
  key: Schema.String.pipe(Schema.minLength(1, { message: () => "must be a non-empty string" })),
  attributes: Schema.optional(Attributes)
}).annotations(documentName("EvaluationContext"))
export type EvaluationContext = typeof EvaluationContext.Type
