/**
 * A JSON object read defensively: an audit entry's stored before/after states, a planned change's
 * shapes, a project file's items. Arrays and primitives are not records (null), so a lookup on one
 * gives undefined rather than an index or a method.
 */
export type JsonRecord = { readonly [key: string]: unknown }

/** `value` as a record, or null when it is not a (non-array) object. */
export const asRecord = (value: unknown): JsonRecord | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null

/**
 * `value` as JSON with every object's keys sorted, to compare two JSON values (stored JSON may come
 * back with its keys in another order than it was written in).
 */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1))) : v)
