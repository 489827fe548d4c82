/**
 * How long a password may be: at least 12 characters, at most 1,024 (OWASP ASVS 2.1; the upper
 * bound caps hashing cost), with the API's words for each. `User.ts` builds the password's Schema
 * on it, and the dashboard's setup form says the problem before anything is sent.
 *
 * Pure, with no imports, so the dashboard bundles it as it is (no Effect in the browser).
 */
export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 1024

export const passwordTooShort = `must be at least ${PASSWORD_MIN_LENGTH} characters`
export const passwordTooLong = `must be at most ${PASSWORD_MAX_LENGTH} characters`

/** What is wrong with the password's length, in the API's words; undefined: nothing. */
export const passwordLengthProblem = (password: string): string | undefined =>
  password.length < PASSWORD_MIN_LENGTH ? passwordTooShort : password.length > PASSWORD_MAX_LENGTH ? passwordTooLong : undefined
