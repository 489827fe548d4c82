/**
 * The one rule for text the service stores in its own columns (names, descriptions, keys and ids
 * in paths, webhook URLs and secrets): no U+0000. PostgreSQL cannot store it in a text column
 * (SQLite can), so refusing it everywhere keeps both backends alike and turns what would be a
 * database error into a 400 with the field's path. JSON values (variation values, condition
 * values) are stored as JSON text, where NUL is escaped, and are not concerned.
 */
import { Schema } from "effect"

export const NUL_MESSAGE = "must not contain the NUL character (U+0000)"

const WITHOUT_NUL = /^[^\u0000]*$/

/** Whether a string can be stored as text by every backend. */
export const isStorableText = (s: string): boolean => !s.includes("\u0000")

/** A string without U+0000; compose further constraints with `Text.pipe(...)`. */
export const Text = Schema.String.pipe(
  Schema.pattern(WITHOUT_NUL, { message: () => NUL_MESSAGE, description: "text without the NUL character (U+0000)" })
)
