/**
 * An annotation for a `Schema.declare` that decodes a value exactly as one of its type parameters
 * does, chosen by the value's shape, or refuses it: the choice, said as a function, so a schema
 * compiler (the SQL adapter's row decoder, adapters/sql/decoding/CompiledDecoder.ts) can compile
 * the chosen schemas instead of calling Effect's decoder for every value. The declaration's own
 * `decode` must choose with the same function (`chosen` below), so the two cannot disagree.
 */
import type * as SchemaAST from "effect/SchemaAST"

export const ChoiceAnnotationId: unique symbol = Symbol.for("flagport/schema/Choice")

/** The index of the type parameter that decodes `input`, or -1 when the declaration refuses it. */
export type Choice = (input: unknown) => number

/** The annotation of a declaration choosing with `choose`. */
export const choiceAnnotation = (choose: Choice): { readonly [ChoiceAnnotationId]: Choice } => ({ [ChoiceAnnotationId]: choose })

/** A declaration's choice, when it has one. */
export const choiceOf = (ast: SchemaAST.Declaration): Choice | undefined => {
  const choose = ast.annotations[ChoiceAnnotationId]
  return typeof choose === "function" ? (choose as Choice) : undefined
}
