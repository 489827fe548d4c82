/**
 * When a single sign-on may open an account that exists already (docs/guide/people.md, "What
 * happens at sign-in"). An identity provider's email claim is not proof of who someone is here:
 * anyone may hold an account at a provider whose address matches, or nearly matches, a Flagport
 * account's. So an account is found by its linked identity (issuer and subject), and linked by
 * email only once, when that cannot hand over more than the email's owner could lose:
 *
 * - never an account linked to an identity before (it already has its way in);
 * - never a global administrator's (remove the flag for the link, then give it back);
 * - never an address at `localhost` (the first administrator's, `admin@localhost`, is made by the
 *   server itself, and no provider can vouch for a mailbox there).
 *
 * A global admin may allow one more link for an account the first two rules refuse (the person's
 * identity at the provider changed; a global admin moving to single sign-on): the account's next
 * single sign-on with its email, within SSO_LINK_ALLOWANCE_MS, links it to that identity instead
 * of the ones before. Never at localhost.
 */
import type { SignInRefusal } from "./SignInRefusal.js"
import { emailDomain, type User } from "./User.js"

/** How long a global admin's allowance to link an account waits for its single sign-on. */
export const SSO_LINK_ALLOWANCE_MS = 72 * 60 * 60 * 1000

/** The 409 of allowing a link for an account at localhost, which is never linked. */
export const LOCALHOST_NEVER_LINKED = "An account at localhost is never linked to single sign-on."

/** Whether `email` is at `localhost` or a name under it (reserved for loopback, RFC 6761). */
export const isLocalhostEmail = (email: string): boolean => {
  const domain = emailDomain(email).replace(/\.$/, "")
  return domain === "localhost" || domain.endsWith(".localhost")
}

/** Why a single sign-on may not link the existing `user` found by its email, or `null` when it may. */
export const linkByEmailRefusal = (user: User, alreadyLinked: boolean): SignInRefusal | null =>
  alreadyLinked || user.admin || isLocalhostEmail(user.email) ? "accountNotLinkable" : null
