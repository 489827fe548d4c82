/**
 * A person's way in and out: sign-in with a password, the setup link's password, loading who is
 * signed in (`GET /v1/me`) with the projects they see, and signing out (the server deletes the
 * session, so the cookie no longer works anywhere).
 *
 * Every call here goes without a key: the session cookie is what the server judges.
 */
import { passwordLengthProblem } from "../../src/domain/people/PasswordRule.js"
import { isSignInRefusal } from "../../src/domain/people/SignInRefusal.js"
import { apiBase, requestWith } from "./api.js"
import { keepPerson, me, signOut } from "./session.js"
import { fromError, NO_PROBLEMS, type Problems } from "./problems.js"
import type { List, Me, Project, Providers } from "./types.js"

/** Keeps `who` as the signed-in person, with the projects the API lists for them. */
export const keepSignedIn = async (who: Me): Promise<void> => {
  const available = await requestWith<List<Project>>(null, "GET", "/v1/projects")
  keepPerson(who, available.data)
}

/** Who the session cookie belongs to, if anyone (401 without a session: null). */
export const currentPerson = async (): Promise<Me | null> => {
  try {
    return await requestWith<Me>(null, "GET", "/v1/me")
  } catch {
    return null
  }
}

export const signInWithPassword = async (email: string, password: string): Promise<void> =>
  keepSignedIn(await requestWith<Me>(null, "POST", "/v1/auth/login", { email, password }))

/** Sets the password of a setup link's person (the link works once) and signs them in. */
export const setUpPassword = async (token: string, password: string): Promise<void> =>
  keepSignedIn(await requestWith<Me>(null, "POST", "/v1/auth/setup", { token, password }))

/** Ends the session on the server, then forgets it here; a key is only forgotten (it is not a session). */
export const endSession = async (): Promise<void> => {
  if (me.value !== null) await requestWith(null, "POST", "/v1/auth/logout")
  signOut()
}

export const loadProviders = (): Promise<Providers> => requestWith<Providers>(null, "GET", "/v1/auth/providers")

/**
 * Where single sign-on starts (`<prefix>/auth/oidc/login`), asked to come back to the dashboard's
 * current route once signed in (a same-origin path, which the server insists on).
 */
export const ssoHref = (): string => {
  const dashboard = new URL("./", document.baseURI).pathname
  return `${apiBase()}auth/oidc/login?returnTo=${encodeURIComponent(dashboard + location.hash)}`
}

/**
 * Single sign-on sends a person it did not sign in back to `/ui/signin?error=<reason>`. The reason
 * is shown as it is only when it is one of the server's own messages: a link anyone can craft must
 * not put words of their choosing on Flagport's sign-in page.
 */
export const ssoRefusal = (search: string): string | null => {
  const reason = new URLSearchParams(search).get("error")
  if (reason === null) return null
  return isSignInRefusal(reason) ? reason : "Single sign-on did not sign you in. Please try again."
}

/** The minimum length of a password, for the setup form's hint. */
export { PASSWORD_MIN_LENGTH } from "../../src/domain/people/PasswordRule.js"

/** The problems of the two fields before anything is sent (none: null): the password's length by the API's own rule. */
export const passwordProblems = (password: string, confirmation: string): Problems | null => {
  const length = passwordLengthProblem(password)
  const details = [
    ...(length === undefined ? [] : [{ path: "password", message: length }]),
    ...(password !== confirmation ? [{ path: "confirmation", message: "does not match the password" }] : [])
  ]
  return details.length === 0 ? null : { message: "Check the password.", details, status: null }
}

/** Reads `GET /v1/me` again after a change that may touch the signed-in person's own roles. */
export const refreshMe = async (): Promise<void> => {
  const who = await currentPerson()
  if (who !== null && me.value !== null) me.value = who
}

/** How a page shows the outcome of a change it made, and loads its data again. */
export interface ChangeView {
  readonly setProblems: (problems: Problems) => void
  readonly setStatus: (status: string) => void
  readonly reload: () => void
}

/**
 * Runs a change to the person `who` (their role, their account), then says what it did (or shows
 * the refusal) and loads the page again; when `who` is the signed-in person, their own roles are
 * read again first, since the page may now offer them less. Answers whether it went through.
 */
export const changePerson = async (view: ChangeView, who: { readonly id: string }, run: () => Promise<unknown>, done: string): Promise<boolean> => {
  try {
    await run()
    view.setProblems(NO_PROBLEMS)
    view.setStatus(done)
    if (who.id === me.value?.user.id) await refreshMe()
    view.reload()
    return true
  } catch (error) {
    view.setStatus("")
    view.setProblems(fromError(error))
    return false
  }
}
