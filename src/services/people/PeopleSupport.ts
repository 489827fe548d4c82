/**
 * What the people use cases share: one-time tokens (setup links and sessions) and how a person's
 * write is recorded in the audit log.
 */
import type { AuditDraft } from "../shared/Writes.js"
import * as Base64 from "../../domain/Base64.js"
import type { Membership } from "../../domain/people/Role.js"
import type { User } from "../../domain/people/User.js"
import type { CryptoShape } from "../../ports/Crypto.js"

/** A fresh token: 256 bits from the OS CSPRNG, base64url (43 characters). */
export const newToken = (crypto: CryptoShape): string => Base64.urlFromBytes(crypto.randomBytes(32))

/** SHA-256 of the token, lowercase hex: the only form in which setup and session tokens are stored. */
export const hashToken = (crypto: CryptoShape, token: string): string => crypto.sha256Hex(token)

export type UserAction =
  | "user.created"
  | "user.updated"
  | "user.password_reset"
  | "user.unlocked"
  | "user.sso_linked"
  | "user.sso_link_allowed"

/**
 * A write to a person, recorded in the log of each project they are a member of (the audit log is
 * per project; a person in none, such as a global admin, leaves no entry, as a global key does).
 * Entries show the user record, which never holds a password, its hash or a token.
 */
export const userAudit = (
  action: UserAction,
  memberships: ReadonlyArray<Membership>,
  before: User | null,
  after: User
): ReadonlyArray<AuditDraft> =>
  memberships.map(({ projectId }) => ({ projectId, action, resource: { type: "user", key: after.id }, before, after }))

/** A membership as its audit entries show it. */
export const shownMembership = (user: User, role: string) => ({ userId: user.id, email: user.email, role })

/** A new person's entries: `user.created`, and `member.put` for each project they start in. */
export const newUserAudit = (user: User, memberships: ReadonlyArray<Membership>): ReadonlyArray<AuditDraft> => [
  ...userAudit("user.created", memberships, null, user),
  ...memberships.map((m) => ({
    projectId: m.projectId,
    action: "member.put",
    resource: { type: "member" as const, key: user.id },
    before: null,
    after: shownMembership(user, m.role)
  }))
]
