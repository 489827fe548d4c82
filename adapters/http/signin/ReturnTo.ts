/**
 * Where a sign-in returns to. `returnTo` comes from a link anyone can craft, so only a path on
 * Flagport's own origin is followed (an open redirect would lend our address to a phishing page);
 * anything else lands on the dashboard.
 *
 * The path is absolute on the origin, as the dashboard knows it (`/ui/#/flags`, or
 * `/flags/ui/#/flags` when a host mounts Flagport under `/flags`).
 */

/** Longer than any dashboard route; a longer value is not a route of ours. */
const MAX_LENGTH = 2048

const BASE = "https://flagport.invalid"

/**
 * `returnTo` when it is a path on this origin (`/ui/`, `/ui/#/projects/p1/flags`), else undefined.
 * Refused: absent or empty, not starting with one `/` (`//host` and `/\host` are other hosts to a
 * browser), a backslash or control character anywhere (browsers drop or rewrite them, turning a
 * path into another host), and anything that leaves the origin once resolved.
 */
export const safeReturnTo = (raw: string | null | undefined): string | undefined => {
  if (raw === null || raw === undefined || raw.length === 0 || raw.length > MAX_LENGTH) return undefined
  if (!raw.startsWith("/") || raw.startsWith("//")) return undefined
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return undefined
  if (!URL.canParse(raw, BASE) || new URL(raw, BASE).origin !== BASE) return undefined
  return raw
}

/** The dashboard under the public URL: where a sign-in lands when `returnTo` is not ours. */
export const dashboardUrl = (publicUrl: string): string => `${publicUrl}/ui/`

/** The absolute address a sign-in returns to: `returnTo` on the public URL's origin, else the dashboard. */
export const returnUrl = (publicUrl: string, returnTo: string | null | undefined): string => {
  const path = safeReturnTo(returnTo)
  return path === undefined ? dashboardUrl(publicUrl) : `${new URL(publicUrl).origin}${path}`
}
