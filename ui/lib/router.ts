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
