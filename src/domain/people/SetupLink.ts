/**
 * Setup links (docs/guide/people.md): an invitation or a password reset gives a one-time token, valid
 * 72 h, that the person opens at `<public URL>/ui/setup#token=<token>` (in the fragment, so it is
 * never sent to a server or written in an access log). Only the token's SHA-256 hash is stored.
 */

export const SETUP_TOKEN_LIFETIME_MS = 72 * 60 * 60 * 1000

/** The link a person opens to set their password; `publicUrl` without its trailing slashes. */
export const setupUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, "")}/ui/setup#token=${encodeURIComponent(token)}`
