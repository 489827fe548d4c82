/**
 * Why a single sign-on did not sign the person in, in the words the dashboard's sign-in page
 * shows: the callback redirects to `<public URL>/ui/signin?error=<message>`. The dashboard shows
 * a message only when it is one of these (`isSignInRefusal`), so a crafted link cannot put words
 * of someone else's choosing on Flagport's sign-in page. Every message the callback sends comes
 * from here, `SignIn.withSso`'s refusals included.
 */
export const SIGN_IN_REFUSALS = {
  /** The provider does not vouch for the address (`email_verified` is not true). */
  emailNotVerified: "Your identity provider has not verified your email address, so it cannot be used to sign in.",
  /** No email claim, one that is not an email address, or one at localhost. */
  emailUnusable: "Your identity provider did not give a usable email address.",
  /** FLAGPORT_OIDC_ALLOWED_DOMAINS does not list the address's domain. */
  domainNotAllowed: "Sign-in with an email address at this domain is not allowed here.",
  accountDisabled: "This account is disabled. Ask a global admin to enable it.",
  /**
   * An account with the address exists, but single sign-on may not open it: it is linked to
   * another identity, or is a global admin's, or its address is at localhost (SsoLink.ts).
   */
  accountNotLinkable: "An account with this email address already exists and cannot be opened with this sign-in. Ask a global admin.",
  /** No transaction (expired, another browser), a tampered `state`, or a response failing a check. */
  signInFailed: "The sign-in could not be completed (it expired, or did not start here). Please try again.",
  /** The provider answered with an error (the person declined, for instance). */
  providerRefused: "Your identity provider did not complete the sign-in.",
  providerUnavailable: "Your identity provider could not be reached. Please try again later."
} as const

export type SignInRefusal = keyof typeof SIGN_IN_REFUSALS

const MESSAGES: ReadonlySet<string> = new Set(Object.values(SIGN_IN_REFUSALS))

/** Whether `text` (read from a URL) is one of the messages above. */
export const isSignInRefusal = (text: string | null | undefined): boolean => text !== null && text !== undefined && MESSAGES.has(text)
