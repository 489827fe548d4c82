/**
 * The one rule for text the service stores in its own columns (names, descriptions, keys and ids
 * in paths, webhook URLs and secrets): no U+0000 and no lone surrogate (a UTF-16 code unit
 * U+D800..U+DFFF without its pair, which JSON's `\ud800` escape can carry but is no Unicode
 * character). PostgreSQL cannot store U+0000 in a text column, and stores a lone surrogate as
 * U+FFFD while the answer and the audit entry showed the original; SQLite keeps both. Refusing
 * them everywhere keeps both backends alike and what is stored equal to what was shown, and turns
 * them into a 400 with the field's path. JSON values (variation values, condition values) are
 * stored as JSON text, where both are escaped and round-trip exactly, and are not concerned.
 */
import * as Schema from "effect/Schema"
import { isWellFormed, NUL_MESSAGE, UNICODE_MESSAGE, WITHOUT_NUL } from "./TextCheck.js"

// The predicates live in TextCheck.ts, free of Effect, so the SDK checks what it sends by the same rule.
export { isStorableText, isWellFormed, isWellFormedByExpression, NUL_MESSAGE, UNICODE_MESSAGE } from "./TextCheck.js"

/** A string without U+0000 or a lone surrogate; compose further constraints with `Text.pipe(...)`. */
export const Text = Schema.String.pipe(
  Schema.pattern(WITHOUT_NUL, { message: () => NUL_MESSAGE, description: "text without the NUL character (U+0000)" }),
  Schema.filter(isWellFormed, { message: () => UNICODE_MESSAGE, jsonSchema: {} })
)
