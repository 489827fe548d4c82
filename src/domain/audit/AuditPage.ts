import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Base64 from "../Base64.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"
import { AuditEntry, AuditResourceType } from "./AuditEntry.js"

/** How many entries one page of the audit log holds: `limit` from 1 to 200, 50 when absent. */
export const AUDIT_PAGE = { min: 1, max: 200, default: 50 } as const

/** The query of `GET /v1/projects/{p}/audit`: filters, page size and where to go on from. */
export const AuditQuery = Schema.Struct({
  resourceType: Schema.optional(AuditResourceType),
  resourceKey: Schema.optional(Text),
  environment: Schema.optional(Text),
  limit: Schema.optional(
    // Documented on the text a URL carries (the OpenAPI document describes that side).
    Schema.String.annotations({
      description: `Entries per page, a whole number from ${AUDIT_PAGE.min} to ${AUDIT_PAGE.max} (default ${AUDIT_PAGE.default}).`
    }).pipe(Schema.compose(Schema.NumberFromString), Schema.int(), Schema.between(AUDIT_PAGE.min, AUDIT_PAGE.max))
  ),
  cursor: Schema.optional(Text.annotations({ description: "`nextCursor` of the previous page." }))
}).annotations({ parseOptions: { errors: "all" } })
export type AuditQuery = typeof AuditQuery.Type

/** One page of entries, newest first; `nextCursor` fetches the next (older) page, null on the last. */
export const AuditPage = Schema.Struct({
  data: Schema.Array(AuditEntry),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations(documentName("AuditPage"))
export type AuditPage = typeof AuditPage.Type

const PREFIX = "audit:"

/** The opaque cursor of the page that follows the entry at `position`. */
export const encodeCursor = (position: number): string => Base64.urlFromBytes(new TextEncoder().encode(`${PREFIX}${position}`))

/** The position a cursor continues after, or none for text that no page ever answered. */
export const decodeCursor = (cursor: string): Option.Option<number> => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return Option.none()
  const padded = cursor.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (cursor.length % 4)) % 4)
  let text: string
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Base64.toBytes(padded))
  } catch {
    return Option.none()
  }
  const digits = text.startsWith(PREFIX) ? text.slice(PREFIX.length) : ""
  const position = /^[1-9][0-9]{0,15}$/.test(digits) ? Number(digits) : Number.NaN
  return Number.isSafeInteger(position) ? Option.some(position) : Option.none()
}
