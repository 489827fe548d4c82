/**
 * Which email domains may sign in with single sign-on (FLAGPORT_OIDC_ALLOWED_DOMAINS, a comma
 * list). No list means every domain the provider vouches for.
 */
import { emailDomain, normalizeEmail } from "./User.js"

/** "Example.com, @corp.example ," -> ["example.com", "corp.example"]: trimmed, lowercase, no leading `@`, no empties. */
export const parseAllowedDomains = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((part) => part.trim().toLowerCase().replace(/^@/, ""))
    .filter((part) => part.length > 0)

/** Whether `email` may sign in: its domain is listed exactly (a subdomain is another domain), or nothing is listed. */
export const domainAllowed = (email: string, allowedDomains: ReadonlyArray<string>): boolean =>
  allowedDomains.length === 0 || allowedDomains.map((d) => d.toLowerCase()).includes(emailDomain(normalizeEmail(email)))
