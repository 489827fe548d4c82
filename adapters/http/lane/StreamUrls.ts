/**
 * The `eventStreams` of the OFREP bulk evaluation: the absolute URL of this server's
 * `GET /v1/stream` for the caller's project and environment, with a stream token in it (OFREP's
 * web provider connects with the URL alone).
 *
 * - With `FLAGPORT_PUBLIC_URL` set, the URL is `<public URL>/v1/stream`: nothing from the request
 *   goes in (adapters/settings/PublicUrl.ts).
 * - Otherwise the origin is the request's own (`Host`), over http; behind a proxy that terminates
 *   TLS, with `FLAGPORT_TRUST_PROXY` (a request from a trusted proxy), `X-Forwarded-Proto` and
 *   `X-Forwarded-Host` (last values) instead; only http/https and a valid host are taken (a request whose host is not one gets no
 *   `eventStreams` entry), and the mount prefix is the app's (`/flags` when a host mounts Flagport there).
 * - A token is issued once per (key, project, environment) and handed out again while it has more
 *   than half its life left, so a bulk evaluation signs nothing in steady state.
 */
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import type { EvaluationScope } from "../../../src/domain/auth/Policy.js"
import { DEFAULT_TTL_SECONDS } from "../../../src/domain/auth/StreamToken.js"
import type { IssuedStreamToken } from "../../../src/services/auth/StreamTokens.js"
import type { LaneRequest } from "../shared/EvaluationLaneService.js"
import { originOf } from "../shared/RequestOrigin.js"
import { andThen, type MaybeAsync } from "../shared/MaybeAsync.js"
import { forwardedHeadersTrusted, type TrustProxy } from "../shared/TrustProxy.js"

const MAX_CACHED = 10_000
const NO_ENTRIES: ReadonlyArray<unknown> = Object.freeze([])

export class StreamUrls {
  private readonly issued = new Map<string, IssuedStreamToken>()
  /** The entries last made with each token held (and the base they were made with). */
  private readonly entries = new Map<string, { readonly base: string; readonly entries: ReadonlyArray<unknown> }>()

  constructor(
    private readonly options: {
      readonly issue: (principal: Principal, scope: EvaluationScope) => Promise<IssuedStreamToken>
      readonly prefix: string
      readonly trustProxy: TrustProxy
      /** FLAGPORT_PUBLIC_URL, normalised (no trailing slash); the request is not consulted then. */
      readonly publicUrl?: string
      readonly now?: () => number
    }
  ) {}

  /** The `eventStreams` entries for a bulk evaluation by `principal` in `scope`. */
  eventStreams(principal: Principal, scope: EvaluationScope, request: LaneRequest): MaybeAsync<ReadonlyArray<unknown>> {
    const root = this.options.publicUrl ?? originOf((name) => request.header(name), forwardedHeadersTrusted(this.options.trustProxy, request.remoteAddress))
    if (root === undefined) return NO_ENTRIES
    const base = `${root}${this.options.publicUrl === undefined ? this.options.prefix : ""}/v1/stream?token=`
    return andThen(this.token(principal, scope), (token) => {
      // The same token and base give the same entries: handed out again (the bulk route keeps their JSON by identity).
      const last = this.entries.get(token)
      if (last !== undefined && last.base === base) return last.entries
      const entries: ReadonlyArray<unknown> = Object.freeze([Object.freeze({ type: "sse", url: `${base}${encodeURIComponent(token)}` })])
      if (this.entries.size >= MAX_CACHED) this.entries.clear()
      this.entries.set(token, { base, entries })
      return entries
    })
  }

  private token(principal: Principal, scope: EvaluationScope): MaybeAsync<string> {
    const key = `${principal.keyId}\u0000${scope.projectId}\u0000${scope.environment}`
    const seconds = Math.floor((this.options.now ?? Date.now)() / 1000)
    const held = this.issued.get(key)
    if (held !== undefined && held.expiresAt - seconds > DEFAULT_TTL_SECONDS / 2) return held.token
    return this.options.issue(principal, scope).then((fresh) => {
      if (this.issued.size >= MAX_CACHED) this.issued.clear()
      this.issued.set(key, fresh)
      return fresh.token
    })
  }
}
