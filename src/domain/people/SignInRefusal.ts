/**
 * Why a single sign-on did not sign the person in, in the words the dashboard's sign-in page
 * shows: the callback redirects to `<public URL>/ui/signin?error=<message>`. The dashboard can
 * check a message is one of these (`isSignInRefusal`) before showing it, so a crafted link cannot
 * put words of someone else's choosing on Flagport's sign-in page.
 */
export const SIGN_IN_REFUSALS = {
  emailNotVerified: "Your sign-in provider has not verified your email address, so it cannot be used to sign in here.",
  emailMissing: "Your sign-in provider did not share an email address, so it cannot be used to sign in here.",
  domainNotAllowed: "Your email address's domain is not allowed to sign in here. Ask an administrator.",
  accountDisabled: "Your account is disabled. Ask an administrator.",
  signInFailed: "The sign-in could not be completed (it expired, or did not start here). Please try again.",
  providerRefused: "Your sign-in provider did not complete the sign-in.",
  providerUnavailable: "Your sign-in provider could not be reached. Please try again later."
} as const

export type SignInRefusal = keyof typeof SIGN_IN_REFUSALS

const MESSAGES: ReadonlySet<string> = new Set(Object.values(SIGN_IN_REFUSALS))

/** Whether `text` (read from a URL) is one of the messages above. */
export const isSignInRefusal = (text: string | null | undefined): boolean => text !== null && text !== undefined && MESSAGES.has(text)
