/**
 * The two forms an item of `conditions` takes (definitions/Condition.ts declares their schemas): a
 * condition, or a group `{ "anyOf": [[...], ...] }`, told apart by the `anyOf` field alone. Pure
 * and without imports, so the client SDK (which must not load Effect) and the core read them the
 * same way.
 */

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Whether an item of `conditions` is a group: it has an `anyOf` field, whatever else it has. */
export const isGroupShaped = (u: unknown): u is { readonly anyOf: unknown } => isRecord(u) && Object.prototype.hasOwnProperty.call(u, "anyOf")

/** A group over conditions of type `C`. */
export interface GroupOf<C> {
  readonly anyOf: ReadonlyArray<ReadonlyArray<C>>
}

/** The conditions of a (well-formed) list of conditions and groups, each group's lists opened in place (groups do not nest). */
export const plainConditions = <C extends object>(items: ReadonlyArray<C | GroupOf<C>>): Array<C> =>
  items.flatMap((item) => (isGroupShaped(item) ? (item as GroupOf<C>).anyOf.flat() : [item as C]))
