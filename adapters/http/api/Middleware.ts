/**
 * The API-level middleware: everything that would otherwise leave the HttpApi app in a shape
 * other than our envelope is turned into it here (it wraps the router, so it sees what no
 * endpoint middleware can):
 *
 * - the built-in `HttpApiDecodeError` -> 400 with every issue and its path,
 * - the malformed-JSON defect (`RequestError`, reason "Decode") -> 400, or 413 when the body
 *   passed the 1 MiB cap (`MaxBodySize`, set here for every request),
 * - `RouteNotFound` (unknown path or method) -> 404,
 * - anything unexpected -> logged with its cause, answered 500 with a message that leaks nothing.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { FlagportApi } from "./Api.js"
import { MAX_BODY_BYTES } from "../shared/Body.js"
import * as Errors from "../shared/Errors.js"
import { REQUEST_INVALID, problemsOf, type Issue } from "../shared/Problems.js"

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" ? u._tag : undefined

/** The platform's body read failed at the 1 MiB cap (`MaxBodySize`). */
export const isBodyLimit = (error: { readonly cause?: unknown }): boolean =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

/** What the cause becomes on the wire, or `undefined` when it is unexpected (a 500 after logging). */
export const classify = (
  cause: Cause.Cause<unknown>,
  method: string,
  path: string
): Errors.ApiError | Errors.PreconditionFailed | Errors.Unavailable | Errors.SignInLimited | undefined => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (
      Errors.isApiError(error) || error instanceof Errors.PreconditionFailed || error instanceof Errors.Unavailable ||
      error instanceof Errors.SignInLimited
    ) return error
    switch (tagOf(error)) {
      case "HttpApiDecodeError":
        return Errors.badRequest(REQUEST_INVALID, problemsOf((error as { issues: ReadonlyArray<Issue> }).issues))
      case "RouteNotFound":
        return Errors.routeNotFound(method, path)
      case "RequestError":
        return isBodyLimit(error as { cause?: unknown }) ? Errors.payloadTooLarge() : Errors.malformedJson()
    }
    return undefined
  }
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect) && tagOf(defect.value) === "RequestError") {
    const error = defect.value as { reason?: string; cause?: unknown }
    if (error.reason === "Decode") return isBodyLimit(error) ? Errors.payloadTooLarge() : Errors.malformedJson()
  }
  return undefined
}

/**
 * The middleware's type only admits the API-level errors (the 500 and the built-in decode error),
 * but the encoder that runs after it is built from every error schema of the API (endpoints, groups
 * and security middlewares included), so every envelope class encodes to its own status.
 */
const failEnvelope = (error: Errors.ApiError | Errors.PreconditionFailed | Errors.Unavailable | Errors.SignInLimited) => Effect.fail(error as Errors.InternalError)

export const ErrorEnvelopeLive = HttpApiBuilder.middleware(
  FlagportApi,
  Effect.gen(function* () {
    const maxBody = Option.some(FileSystem.Size(MAX_BODY_BYTES))
    return (app) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* app.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBody),
          Effect.catchAllCause((cause) => {
            if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
            const path = request.url.split("?")[0]
            const mapped = classify(cause, request.method, path)
            if (mapped !== undefined) return failEnvelope(mapped)
            return Effect.logError(`Internal error on ${request.method} ${path}`, cause).pipe(
              Effect.zipRight(failEnvelope(Errors.internalError()))
            )
          })
        )
      })
  }),
  { withContext: true }
)
