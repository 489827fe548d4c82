/**
 * The dashboard's static files, served at `<prefix>/ui/` beside the API by the node and web
 * handlers (Embed.ts), and `/` redirecting there on the standalone server.
 *
 * Only GET and HEAD under `/ui` are the dashboard's; everything else goes on to the API, whose
 * responses are left as they are. Every dashboard response carries a strict Content-Security-Policy
 * (scripts and styles from this origin only: no inline script, no eval, no inline style sheet) and
 * headers that stop sniffing, framing and referrers. Files are answered from memory with an ETag.
 */
import { createHash } from "node:crypto"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import { loadAssets, type AssetFiles } from "./DashboardAssets.js"

export interface DashboardOptions {
  /** Environments where a change asks for a confirmation first (default: `production`). */
  readonly confirmEnvironments?: ReadonlyArray<string>
  /**
   * Answer `GET /` with a redirect to the dashboard (the standalone server does). Under a prefix
   * `<prefix>/` always redirects: that path is Flagport's, and it is where people type.
   */
  readonly redirectRoot?: boolean
  /** Where the files come from (default: DashboardAssets.loadAssets). */
  readonly assets?: () => Promise<AssetFiles>
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin"
}

const TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  png: "image/png",
  svg: "image/svg+xml"
}

interface Asset {
  readonly body: Uint8Array
  readonly type: string
  readonly etag: string
}

const asset = (name: string, body: Uint8Array): Asset => ({
  body,
  type: TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream",
  etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`
})

/**
 * Paths of the dashboard that are pages rather than files, answered with its one page: the setup
 * link of an invitation (`/ui/setup#token=…`) and the sign-in page single sign-on returns to with
 * its message (`/ui/signin?error=…`). Their asset URLs are relative, so they resolve under `/ui/`.
 */
const PAGES: ReadonlySet<string> = new Set(["setup", "signin"])

const text = (status: number, message: string, extra: Record<string, string> = {}): LaneResponse => ({
  status,
  headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra },
  body: message
})

const redirect = (location: string): LaneResponse => ({
  status: 302,
  headers: { ...SECURITY_HEADERS, location, "cache-control": "no-store" },
  body: undefined
})

/** Whether the If-None-Match header names this ETag (weak and strong forms compare alike). */
const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag))

export interface Dashboard {
  /** The answer for a request (path with the prefix stripped), or undefined when it is the API's. */
  readonly answer: (method: string, path: string, ifNoneMatch: string | undefined) => Promise<LaneResponse> | undefined
}

export const makeDashboard = (prefix: string, options: DashboardOptions = {}): Dashboard => {
  const settings = new TextEncoder().encode(JSON.stringify({ confirmEnvironments: options.confirmEnvironments ?? ["production"] }))
  let files: Promise<ReadonlyMap<string, Asset>> | undefined
  const load = (): Promise<ReadonlyMap<string, Asset>> => {
    files ??= (options.assets ?? loadAssets)().then((found) => {
      const all = new Map<string, Asset>()
      for (const [name, body] of found) all.set(name, asset(name, body))
      all.set("settings.json", asset("settings.json", settings))
      return all
    })
    // A failed load is retried by the next request (the build may be running).
    files.catch(() => (files = undefined))
    return files
  }
  const serve = async (method: string, name: string, ifNoneMatch: string | undefined): Promise<LaneResponse> => {
    let all: ReadonlyMap<string, Asset>
    try {
      all = await load()
    } catch (error) {
      return text(503, `The dashboard is not available: ${error instanceof Error ? error.message : String(error)}\n`)
    }
    const found = all.get(name)
    if (found === undefined) return text(404, "Not found.\n")
    const headers = { ...SECURITY_HEADERS, "content-type": found.type, etag: found.etag, "cache-control": "no-cache" }
    if (matches(ifNoneMatch, found.etag)) return { status: 304, headers, body: undefined }
    return { status: 200, headers, body: method === "HEAD" ? undefined : found.body }
  }
  return {
    answer: (method, path, ifNoneMatch) => {
      if (method !== "GET" && method !== "HEAD") return undefined
      const q = path.indexOf("?")
      const pathname = q === -1 ? path : path.slice(0, q)
      if (pathname === "/" && (options.redirectRoot === true || prefix !== "")) return Promise.resolve(redirect(`${prefix}/ui/`))
      if (pathname === "/ui") return Promise.resolve(redirect(`${prefix}/ui/`))
      if (!pathname.startsWith("/ui/")) return undefined
      const name = pathname.slice("/ui/".length)
      return serve(method, name === "" || PAGES.has(name) ? "index.html" : name, ifNoneMatch)
    }
  }
}
