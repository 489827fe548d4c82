/**
 * The flags list's query and its pages (`GET /v1/projects/{p}/flags`): narrowed by staleness,
 * type and a search text, and paged with `limit` and an opaque `cursor`.
 *
 * Without `limit` and `cursor` the answer is every flag (narrowed as asked) in creation order, as
 * the list always answered. A page, asked with either, holds flags in key order and its cursor
 * names the last key it held, so the next page goes on after that key: a flag created or deleted
 * between two pages neither repeats another flag nor makes one be skipped (a new flag shows on the
 * pages still to come when its key sorts after the cursor).
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Base64 from "../Base64.js"
import { InvalidRequest } from "../Errors.js"
import { type Flag, FlagType } from "./Flag.js"
import { Text } from "./Text.js"

/** How many flags one page holds: `limit` from 1 to 200, 50 when only `cursor` is given. */
export const FLAG_PAGE = { min: 1, max: 200, default: 50 } as const

/** The longest search text: longer than any key or name a person would type. */
export const MAX_SEARCH = 200

/** The query of `GET /v1/projects/{p}/flags`, as a URL carries it. */
export const FlagListQuery = Schema.Struct({
  // Literals without a description of their own: the refusal then names the values allowed.
  status: Schema.optional(Schema.Literal("stale")),
  type: Schema.optional(FlagType),
  q: Schema.optional(
    Text.pipe(Schema.maxLength(MAX_SEARCH)).annotations({
      description: `Only the flags whose key or name contains this text, ignoring case (at most ${MAX_SEARCH} characters).`
    })
  ),
  limit: Schema.optional(
    // Documented on the text a URL carries (the OpenAPI document describes that side).
    Schema.String.annotations({
      description: `Flags per page, a whole number from ${FLAG_PAGE.min} to ${FLAG_PAGE.max}. With \`limit\` or \`cursor\` the answer is one page, in key order (${FLAG_PAGE.default} flags when only \`cursor\` is given); with neither, every flag in creation order.`
    }).pipe(Schema.compose(Schema.NumberFromString), Schema.int(), Schema.between(FLAG_PAGE.min, FLAG_PAGE.max))
  ),
  cursor: Schema.optional(Text.annotations({ description: "`nextCursor` of the previous page (send the same `status`, `type` and `q`)." }))
}).annotations({ parseOptions: { errors: "all" } })
export type FlagListQuery = typeof FlagListQuery.Type

/**
 * What the list reads of a flag: its key, name and type, and whether it is stale (which the
 * insights add to a flag: the list narrows whatever flags it is given).
 */
export type Listed = Pick<Flag, "key" | "name" | "type"> & { readonly stale: boolean }

/** The flags of one answer; `nextCursor` fetches the next page, null on the last one and on an unpaged list. */
export interface FlagListPage<F extends Listed> {
  readonly data: ReadonlyArray<F>
  readonly nextCursor: string | null
}

const PREFIX = "flags:"

/** The opaque cursor of the page that follows the flag `key`. */
export const encodeCursor = (key: string): string => Base64.urlFromBytes(new TextEncoder().encode(`${PREFIX}${key}`))

/** The key a cursor goes on after, or none for text that no page ever answered. */
export const decodeCursor = (cursor: string): Option.Option<string> => {
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(cursor)) return Option.none()
  const padded = cursor.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (cursor.length % 4)) % 4)
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Base64.toBytes(padded))
    return text.startsWith(PREFIX) && text.length > PREFIX.length ? Option.some(text.slice(PREFIX.length)) : Option.none()
  } catch {
    return Option.none()
  }
}

const invalid = (path: string, message: string) => new InvalidRequest({ message: "Invalid flag list query", details: [{ path, message }] })

/** Whether `flag` is one the query asks for (staleness, type, search text). */
const wanted = (query: FlagListQuery) => {
  const search = query.q?.trim().toLowerCase() ?? ""
  return (flag: Listed): boolean =>
    (query.status !== "stale" || flag.stale) &&
    (query.type === undefined || flag.type === query.type) &&
    (search === "" || flag.key.toLowerCase().includes(search) || flag.name.toLowerCase().includes(search))
}

// Keys are compared as strings, the same way on every backend and in every locale.
const byKey = (a: Listed, b: Listed): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

/**
 * The answer to `query` over every flag of the project (`all`, in creation order): the flags it
 * narrows to, whole or one page. A `limit` outside 1-200 or a cursor no page answered is a 400.
 */
export const pageOf = <F extends Listed>(all: ReadonlyArray<F>, query: FlagListQuery): Either.Either<FlagListPage<F>, InvalidRequest> => {
  const limit = query.limit ?? FLAG_PAGE.default
  if (!Number.isInteger(limit) || limit < FLAG_PAGE.min || limit > FLAG_PAGE.max) {
    return Either.left(invalid("limit", `must be a whole number from ${FLAG_PAGE.min} to ${FLAG_PAGE.max}`))
  }
  const after = query.cursor === undefined ? Option.none<string>() : decodeCursor(query.cursor)
  if (query.cursor !== undefined && Option.isNone(after)) return Either.left(invalid("cursor", "is not a cursor this endpoint answered"))
  const shown = all.filter(wanted(query))
  if (query.limit === undefined && query.cursor === undefined) return Either.right({ data: shown, nextCursor: null })
  const rest = Option.match(after, {
    onNone: () => shown,
    onSome: (key) => shown.filter((flag) => flag.key > key)
  }).sort(byKey)
  const page = rest.slice(0, limit)
  const last = page[page.length - 1]
  return Either.right({ data: page, nextCursor: rest.length > limit && last !== undefined ? encodeCursor(last.key) : null })
}
