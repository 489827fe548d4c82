/**
 * Routes live in the URL's fragment (`#/flags/new-checkout`): the server serves one page at
 * `<prefix>/ui/` whatever the route, so it works under any mount prefix, and a reload keeps the page.
 * A flag's page keeps its section and environment there too (`#/flags/new-checkout/history?environment=production`),
 * so a reload, a shared link and back/forward land on the same view. An experiment's page is
 * `#/experiments/checkout-redesign`.
 */

/** The sections of a flag's page, in the order its tabs show them; the first is where a flag opens. */
export const FLAG_SECTIONS = ["targeting", "definition", "schedules", "release-plans", "evaluations", "history"] as const
export type FlagSection = (typeof FLAG_SECTIONS)[number]

const isFlagSection = (s: string | undefined): s is FlagSection => FLAG_SECTIONS.some((f) => f === s)

export type Route =
  | { readonly page: "flags" }
  | {
      readonly page: "flag"
      readonly key: string
      /** Absent: the first section (targeting). */
      readonly section?: FlagSection
      /** Absent: the project's first environment. */
      readonly environment?: string
    }
  | { readonly page: "segments" }
  | { readonly page: "experiments" }
  /** One experiment: what it measures, its actions and its results. */
  | { readonly page: "experiment"; readonly key: string }
  | { readonly page: "environments" }
  | { readonly page: "webhooks" }
  | { readonly page: "playground" }
  | { readonly page: "keys" }
  | { readonly page: "audit" }
  | { readonly page: "schedules" }
  | { readonly page: "change-requests" }
  | { readonly page: "members" }
  | { readonly page: "users" }

const flagRoute = (key: string, section: string | undefined, query: URLSearchParams): Route => {
  const environment = query.get("environment")
  return {
    page: "flag",
    key,
    ...(isFlagSection(section) ? { section } : {}),
    ...(environment === null || environment === "" ? {} : { environment })
  }
}

export const parseRoute = (hash: string): Route => {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?", 2)
  const parts = path.split("/").map((p) => decodeURIComponent(p))
  switch (parts[0]) {
    case "flags":
      return parts[1] !== undefined && parts[1] !== "" ? flagRoute(parts[1], parts[2], new URLSearchParams(search)) : { page: "flags" }
    case "experiments":
      return parts[1] !== undefined && parts[1] !== "" ? { page: "experiment", key: parts[1] } : { page: "experiments" }
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

const flagHref = (route: Extract<Route, { page: "flag" }>): string => {
  const section = route.section === undefined || route.section === FLAG_SECTIONS[0] ? "" : `/${route.section}`
  const query = route.environment === undefined ? "" : `?${new URLSearchParams({ environment: route.environment }).toString()}`
  return `#/flags/${encodeURIComponent(route.key)}${section}${query}`
}

export const href = (route: Route): string =>
  route.page === "flag" ? flagHref(route) : route.page === "experiment" ? `#/experiments/${encodeURIComponent(route.key)}` : `#/${route.page}`
