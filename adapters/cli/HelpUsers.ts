/** The help pages of `flagport users` (Help.ts shows them; docs/guide/people.md says more). */
export const USERS_PAGES: Readonly<Record<string, string>> = {
  users: `Usage: flagport users <command>

Commands:
  create             Make a person; print a setup link (or read a password)
  list               List people (never a password)
  disable ID|EMAIL   Refuse their sign-ins, end their sessions everywhere
  enable ID|EMAIL    Let a disabled person sign in again
  reset-password ID|EMAIL
                     Remove their password, end their sessions, print a
                     new setup link
  unlock ID|EMAIL    Forget their failed password sign-ins
  allow-sso-link ID|EMAIL
                     Let their next single sign-on link their account

Setup links are <public URL>/ui/setup#token=..., usable once, for 72 hours.
The public URL is FLAGPORT_PUBLIC_URL, else http://localhost:PORT.
Run flagport users <command> --help for its options.`,

  "users create": `Usage: flagport users create --email EMAIL [--name NAME] [--admin]
                             [--password-stdin] [--json]

Makes a person and prints USER_ID=... and SETUP_URL=<public URL>/ui/setup
#token=..., the link where they set their password (once, within 72 hours).
With --password-stdin the password is read from standard input instead (for
automation) and no link is printed.

Options:
  --email EMAIL        Their email (unique, compared case-insensitively)
  --name NAME          Their name, as the dashboard shows it
  --admin              A global admin: every project, people, global keys
  --password-stdin     Read the password (12 to 1,024 characters) from
                       standard input; one trailing newline is dropped
  --json               Print { user, setupUrl }

Examples:
  npx flagport users create --email edna@example.com --name Edna --admin
  npx flagport users create --email ci@example.com --password-stdin < pw`,

  "users list": `Usage: flagport users list [--json]

Lists people: id, email, name, global admin, single sign-on, created, last
sign-in and disabled. Passwords are never shown: only their hashes are kept.

Options:
  --json         Print { data: [...] }`,

  "users disable": `Usage: flagport users disable ID|EMAIL [--json]

Disables a person: their sign-ins are refused and their sessions end on every
server at once. Their memberships stay, for when they are enabled again.

Options:
  --json         Print the user

Example:
  npx flagport users disable edna@example.com`,

  "users enable": `Usage: flagport users enable ID|EMAIL [--json]

Enables a disabled person again: they can sign in with their password or
single sign-on.

Options:
  --json         Print the user`,

  "users reset-password": `Usage: flagport users reset-password ID|EMAIL [--json]

Removes the person's password, ends their sessions and prints a new
SETUP_URL=... (usable once, for 72 hours; earlier links stop working). The
way back in when nobody can sign in: npx flagport users reset-password
admin@localhost.

Options:
  --json         Print { userId, setupUrl }`,

  "users unlock": `Usage: flagport users unlock ID|EMAIL [--json]

Forgets a person's failed password sign-ins from every address, so the
sign-in limits (per email and address, and the slow-down of an email
attacked from many addresses) no longer hold them back. Prints
UNLOCKED=<id>. Audited as user.unlocked.

Options:
  --json         Print the user

Example:
  npx flagport users unlock edna@example.com`,

  "users allow-sso-link": `Usage: flagport users allow-sso-link ID|EMAIL [--json]

Single sign-on links an existing account by its email only when it was never
linked and is not a global admin's. This lets the person's next single sign-on
with their email, within 72 hours, link the account anyway (their identity at
the provider changed, or a global admin moves to single sign-on), replacing the
identities linked before. Never for an address at localhost. Prints
SSO_LINK_ALLOWED=<id> and EXPIRES_AT=<time>. Audited as user.sso_link_allowed.

Options:
  --json         Print { user, expiresAt }`,
}
