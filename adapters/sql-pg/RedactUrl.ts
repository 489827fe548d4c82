/**
 * Hides the password of a database URL before it is shown anywhere; the rest (scheme, user, host,
 * database) stays, so the message still says where. A URL without a password is unchanged.
 */
export const redactUrl = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^/?#]*@/i, "$1***@")
