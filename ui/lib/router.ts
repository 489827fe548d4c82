/**
 * Routes live in the URL's fragment (`#/flags/new-checkout`): the server serves one page at
 * `<prefix>/ui/` whatever the route, so it works under any mount prefix, and a reload keeps the page.
 */
import { signal } from "@preact/signals"

export type Route =
  | { readonly page: "flags" }
  | { readonly page: "flag"; readonly key: string }
  | { readonly page: "segments" }
  | { readonly page: "environments" }
  | { readonly page: "webhooks" }
  | { readonly page: "playground" }
  | { readonly page: "keys" }
  | { readonly page: "audit" }
  | { readonly page: "schedules" }
  | { readonly page: "change-requests" }
  | { readonly page: "members" }
  | { readonly page: "users" }

export const parseRoute = (hash: string): Route => {
  const parts = hash.replace(/^#\/?/, "").split("/").map((p) => decodeURIComponent(p))
  switch (parts[0]) {
    case "flags":
      return parts[1] !== undefined && parts[1] !== "" ? { page: "flag", key: parts[1] } : { page: "flags" }
    case "segments":
    case "environments":
    case "webhooks":
    case "playground":
    case "keys":
    case "audit":
    case "schedules":
    case "change-requests":
    case "members":
    case "users":
      return { page: parts[0] }
    default:
      return { page: "flags" }
  }
}

export const href = (route: Route): string =>
  route.page === "flag" ? `#/flags/${encodeURIComponent(route.key)}` : `#/${route.page}`

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
