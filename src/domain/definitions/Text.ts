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
export const NUL_MESSAGE = "must not contain the NUL character (U+0000)"
export const UNICODE_MESSAGE = "must be valid Unicode (a lone surrogate such as \\ud800 is not a character)"

const WITHOUT_NUL = /^[^\u0000]*$/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The engine's own check where it has one (ES2024: Node 20, current browsers). */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed

/** Whether a string is well-formed UTF-16 (every surrogate paired), by the expression: for engines without the check. */
export const isWellFormedByExpression = (s: string): boolean => !LONE_SURROGATE.test(s)

/** Whether a string is well-formed UTF-16 (every surrogate paired). */
export const isWellFormed: (s: string) => boolean =
  nativeIsWellFormed === undefined ? isWellFormedByExpression : (s) => nativeIsWellFormed.call(s)

/** Whether a string can be stored as text by every backend, exactly as given. */
export const isStorableText = (s: string): boolean => !s.includes("\u0000") && isWellFormed(s)

/** A string without U+0000 or a lone surrogate; compose further constraints with `Text.pipe(...)`. */
export const Text = Schema.String.pipe(
  Schema.pattern(WITHOUT_NUL, { message: () => NUL_MESSAGE, description: "text without the NUL character (U+0000)" }),
  Schema.filter(isWellFormed, { message: () => UNICODE_MESSAGE, jsonSchema: {} })
)
