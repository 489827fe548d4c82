/**
 * Text.ts's rule as plain predicates (no Effect), so the SDK (adapters/client) can check the
 * units and event names it sends by the same rule the server applies: no U+0000, no lone surrogate.
 */
export const NUL_MESSAGE = "must not contain the NUL character (U+0000)"
export const UNICODE_MESSAGE = "must be valid Unicode (a lone surrogate such as \\ud800 is not a character)"

export const WITHOUT_NUL = /^[^\u0000]*$/
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

