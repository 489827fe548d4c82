/**
 * The current route, kept in step with the URL's fragment; parsing and writing routes is in
 * routes.ts (pure, so it is tested without a browser).
 */
import { signal } from "@preact/signals"
import { href, parseRoute, type Route } from "./routes.js"

export { FLAG_SECTIONS, href, parseRoute, type FlagSection, type Route } from "./routes.js"

export const route = signal<Route>(parseRoute(location.hash))

addEventListener("hashchange", () => {
  route.value = parseRoute(location.hash)
})

export const go = (to: Route): void => {
  location.hash = href(to)
}

/**
 * The two pages that have a path of their own rather than a route: `<prefix>/ui/setup#token=…`
 * (the link of an invitation or a password reset; the token stays in the fragment, which is never
 * sent to a server) and `<prefix>/ui/signin?error=…` (where single sign-on sends a person back
 * with the reason it did not sign them in). The server answers both paths with the dashboard's page.
 */
export type Entry = "setup" | "signin" | null

const entryOf = (pathname: string): Entry => (pathname.endsWith("/ui/setup") ? "setup" : pathname.endsWith("/ui/signin") ? "signin" : null)

export const entry = signal<Entry>(entryOf(location.pathname))

/** Leaves the setup or sign-in path for the dashboard itself (`<prefix>/ui/`), dropping the token or the message from the address. */
export const leaveEntry = (): void => {
  if (entry.value === null) return
  history.replaceState(null, "", new URL("./", document.baseURI).pathname)
  entry.value = null
  route.value = parseRoute("")
}
