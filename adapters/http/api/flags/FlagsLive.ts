/**
 * The flags handlers: each a call to the `Flags` use case (which decides who may ask, and answers a
 * key bound to an environment with that environment's configuration only), with the flag's version
 * as its `ETag` (one environment's configuration's on a targeting read) and `If-Match` read by
 * Versioning.ts.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Flags } from "../../../../src/services/flags/Flags.js"
import { configEtagOf, etagOf } from "../../shared/Versions.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { ifMatchOf } from "../Versioning.js"

/**
 * Answers `answer` with `etag` as its `ETag` header. A flag's version is the flag's, whoever asks:
 * it moves with every change of the flag, so a bound key learns that the flag changed, never what
 * or where (docs/guide/governance.md, "What a bound key reads").
 */
const withEtag = <A>(answer: A, etag: string) =>
  Effect.as(HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etag))), answer)

const flagEtag = <F extends { readonly version: number }>(flag: F) => withEtag(flag, etagOf(flag.version))
const configEtag = <C extends { readonly environmentKey: string; readonly version: number }>(config: C) =>
  withEtag(config, configEtagOf(config.environmentKey, config.version))

export const FlagsLive = HttpApiBuilder.group(FlagportApi, "flags", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) => Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.create(path.projectId, payload)), flagEtag)))
    .handle("list", ({ path, urlParams }) => Effect.flatMap(Flags, (flags) => mapped(flags.page(path.projectId, urlParams))))
    .handle("get", ({ path }) => Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.get(path.projectId, path.flagKey)), flagEtag)))
    // One environment's configuration, with its own ETag (a targeting PUT naming it conflicts only with changes there).
    .handle("getTargeting", ({ path, urlParams }) =>
      Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.targeting(path.projectId, path.flagKey, urlParams.environment)), configEtag)))
    .handle("patch", ({ headers, path, payload }) =>
      Effect.flatMap(ifMatchOf(headers), (options) => Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.patch(path.projectId, path.flagKey, payload, options)), flagEtag))))
    .handle("remove", ({ headers, path }) =>
      Effect.flatMap(ifMatchOf(headers), (options) => Effect.flatMap(Flags, (flags) => mapped(flags.remove(path.projectId, path.flagKey, options)))))
    .handle("replaceTargeting", ({ headers, path, payload }) =>
      Effect.flatMap(ifMatchOf(headers, payload.environment), (options) =>
        Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.replaceTargeting(path.projectId, path.flagKey, payload, options)), flagEtag))))
)
