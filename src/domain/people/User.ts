/**
 * A person who signs in (docs/guide/people.md). People are not keys: keys are for machines, people sign
 * in with a password or single sign-on and act within the roles they hold.
 */
import * as Schema from "effect/Schema"
import { Timestamp } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordTooLong, passwordTooShort } from "./PasswordRule.js"
import { Membership } from "./Role.js"

/** At most 254 characters (RFC 5321's path limit), one `@`, something on both sides, no spaces. */
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$|^[^\s@]{1,64}@localhost$/
export const EMAIL_MAX_LENGTH = 254

export const Email = Text.pipe(
  Schema.maxLength(EMAIL_MAX_LENGTH),
  Schema.pattern(EMAIL_PATTERN, { message: () => "must be an email address (name@domain)" })
)

const ASCII_ONLY = /^[\x00-\x7f]*$/
/** A-Z to a-z and nothing else: no Unicode case folding (which turns the Kelvin sign into `k`). */
const asciiLowercase = (text: string): string => text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase())

/**
 * Emails are unique by this form; the address is kept as typed and compared (and indexed) by it.
 * Only folds that cannot make two people's addresses one: the domain in NFKC with ASCII letters
 * lowercased (domains are case-insensitive), the local part lowercased when it is ASCII, and
 * kept exactly as typed otherwise. A Unicode case fold or compatibility mapping of a local part
 * (`\u212Aate`, with the Kelvin sign, folds to `kate`) would let an address someone chose at an
 * identity provider stand for another person's account.
 */
export const normalizeEmail = (email: string): string => {
  const trimmed = email.trim()
  const at = trimmed.lastIndexOf("@")
  if (at < 0) return ASCII_ONLY.test(trimmed) ? asciiLowercase(trimmed) : trimmed
  const local = trimmed.slice(0, at)
  const domain = asciiLowercase(trimmed.slice(at + 1).normalize("NFKC"))
  return `${ASCII_ONLY.test(local) ? asciiLowercase(local) : local}@${domain}`
}

/** The part after the `@`, lowercase: what `FLAGPORT_OIDC_ALLOWED_DOMAINS` is matched against. */
export const emailDomain = (email: string): string => {
  const normalized = normalizeEmail(email)
  return normalized.slice(normalized.lastIndexOf("@") + 1)
}

export const User = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  /** A global administrator: every project, users, projects, global keys. */
  admin: Schema.Boolean,
  createdAt: Timestamp,
  lastSignInAt: Schema.NullOr(Timestamp),
  disabledAt: Schema.NullOr(Timestamp),
  /** Created by a single sign-on (OpenID Connect) sign-in. */
  sso: Schema.Boolean
}).annotations(documentName("User"))
export type User = typeof User.Type

/** A user and the projects they are a member of: `GET /v1/me`, and the answer of a sign-in. */
export const UserWithMemberships = Schema.Struct({
  user: User,
  memberships: Schema.Array(Membership)
}).annotations(documentName("Me"))
export type UserWithMemberships = typeof UserWithMemberships.Type

/** Passwords: the lengths of PasswordRule.ts, in its words. */
export const Password = Schema.String.pipe(
  Schema.minLength(PASSWORD_MIN_LENGTH, { message: () => passwordTooShort }),
  Schema.maxLength(PASSWORD_MAX_LENGTH, { message: () => passwordTooLong })
)
