/**
 * The flags handlers: each a call to the `Flags` use case, with the flag's version as its `ETag`
 * (one environment's configuration's on a targeting read) and `If-Match` read by Versioning.ts. A
 * key bound to an environment reads and writes that environment's configuration only.
 */
import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import { flagSeen } from "../../../../src/domain/auth/EnvironmentView.js"
import * as Policy from "../../../../src/domain/auth/Policy.js"
import type { PatchFlagInput } from "../../../../src/domain/definitions/Flag.js"
import { Flags } from "../../../../src/services/flags/Flags.js"
import { configEtagOf, etagOf } from "../../shared/Versions.js"
import { FlagportApi } from "../Api.js"
import { allowedBy, flagAsSeen, mapped, mayRead, mayWrite, mayWriteAll, seenEnvironment } from "../Calling.js"
import { ifMatchOf } from "../Versioning.js"

/**
 * Answers with the flag as the caller sees it (a bound key: its environment's configuration only)
 * and the flag's version as the `ETag` header. The version is the flag's, whoever asks: it moves
 * with every change of the flag, so a bound key learns that the flag changed, never what or where
 * (docs/guide/governance.md, "What a bound key reads").
 */
const withEtag = <F extends { readonly version: number; readonly configs: ReadonlyArray<{ readonly environmentKey: string }> }>(flag: F) =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etagOf(flag.version)))),
    flagAsSeen(flag)
  )

/**
 * A flag PATCH as a bound key may make it (Policy.authorizeVariationsWrite): variations identical to
 * the flag's are allowed and left out of the write, so a concurrent change of them is never undone;
 * changed ones are refused. Unbound callers' patches pass as they are (without a read).
 */
const boundVariationsChecked = (projectId: string, flagKey: string, payload: PatchFlagInput) =>
  Effect.gen(function* () {
    if (payload.variations === undefined || (yield* seenEnvironment) === null) return payload
    const current = yield* Effect.flatMap(Flags, (flags) => mapped(flags.get(projectId, flagKey)))
    yield* allowedBy((caller) => Policy.authorizeVariationsWrite(caller, current.variations, payload.variations))
    const { variations: _same, ...rest } = payload
    return rest
  })

export const FlagsLive = HttpApiBuilder.group(FlagportApi, "flags", (handlers) =>
  handlers
    // A new flag has a configuration in every environment (which a bound key could then not delete).
    .handle("create", ({ path, payload }) =>
      Effect.zipRight(mayWriteAll, Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.create(path.projectId, payload)), withEtag)))
    )
    .handle("list", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const flags = yield* Flags
        const all = yield* mapped(flags.list(path.projectId))
        const seen = yield* seenEnvironment
        return { data: (urlParams.status === "stale" ? all.filter((flag) => flag.stale) : all).map((flag) => flagSeen(seen, flag)) }
      })
    )
    .handle("get", ({ path }) => Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.get(path.projectId, path.flagKey)), withEtag)))
    // One environment's configuration, with its own ETag (a targeting PUT naming it conflicts only with changes there).
    .handle("getTargeting", ({ path, urlParams }) =>
      Effect.zipRight(mayRead(urlParams.environment), Effect.flatMap(Flags, (flags) =>
        Effect.flatMap(mapped(flags.targeting(path.projectId, path.flagKey, urlParams.environment)), (config) =>
          Effect.as(
            HttpApp.appendPreResponseHandler((_request, response) =>
              Effect.succeed(HttpServerResponse.setHeader(response, "etag", configEtagOf(config.environmentKey, config.version)))),
            config
          )))))
    // Changed variations change what every environment serves; a deletion removes every configuration.
    .handle("patch", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        const options = yield* ifMatchOf(headers)
        const flags = yield* Flags
        const written = yield* boundVariationsChecked(path.projectId, path.flagKey, payload)
        return yield* Effect.flatMap(mapped(flags.patch(path.projectId, path.flagKey, written, options)), withEtag)
      })
    )
    .handle("remove", ({ headers, path }) =>
      Effect.gen(function* () {
        yield* mayWriteAll
        const options = yield* ifMatchOf(headers)
        const flags = yield* Flags
        yield* mapped(flags.remove(path.projectId, path.flagKey, options))
      })
    )
    .handle("replaceTargeting", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        yield* mayWrite(payload.environment)
        const options = yield* ifMatchOf(headers, payload.environment)
        const flags = yield* Flags
        return yield* Effect.flatMap(mapped(flags.replaceTargeting(path.projectId, path.flagKey, payload, options)), withEtag)
      })
    )
)
