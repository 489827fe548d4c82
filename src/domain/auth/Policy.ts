/**
 * The authorization policy, pure: parse the Authorization header, classify keys, and decide
 * every case of the specification's authorization table with its exact message.
 *
 * Both HTTP lanes (the HttpApi middleware and the lean evaluation lane) call these functions,
 * so the two cannot disagree. Everything here is synchronous and total and returns `Either`.
 */
import * as Either from "effect/Either"
import type { ApiKey, Principal } from "./ApiKey.js"
import type { Caller } from "./Caller.js"
import { Forbidden, InvalidRequest, Unauthenticated } from "../Errors.js"
import { sameJson } from "../definitions/ConfigVersion.js"
import { keySeen } from "./EnvironmentView.js"

/** Messages of the specification's table, verbatim. */
export const Messages = {
  malformedHeader: "Missing or malformed Authorization header. Expected: Bearer <api-key>.",
  invalidKey: "Invalid API key.",
  serverKeyRequired: "A server API key is required for management endpoints.",
  clientKeyUnscoped: "Client keys must be scoped to a project.",
  projectMismatch: "This API key is not authorized for the requested project.",
  projectIdRequired: "A global server key must name the project with projectId on evaluation endpoints.",
  environmentMismatch: "API key is not valid for this environment",
  /** A key bound to one environment tried a write of what every environment serves. */
  boundKeyWritesEveryEnvironment: (environment: string) =>
    `This API key is bound to environment '${environment}': it cannot change what every environment serves (flag creation and deletion, variations, segments, environments).`,
  /** A key bound to one environment asked for a key not bound to that same environment. */
  keyWiderThanCaller: "A key bound to an environment can only create keys bound to the same environment.",
  /** A key bound to one environment tried to revoke a key not bound to that same environment. */
  revokeWiderThanCaller: "A key bound to an environment can only revoke keys bound to the same environment.",
  /** A client key asked for `GET /v1/config` of an environment set to `clientConfig: "evaluated"`. */
  clientConfigWithheld:
    "This environment serves client keys evaluated answers only (clientConfig is \"evaluated\"): its configuration (GET /v1/config) and explanations (POST /v1/explain) need a server key; use the evaluation endpoints (POST /v1/evaluate, GET /v1/flags/{flagKey}/eval, OFREP, GET /v1/stream).",
  /** The 400 of a request that names no environment with a key bound to none (as a missing field). */
  requestInvalid: "The request is invalid."
} as const

export type KeyKind = "server" | "client"

const SCHEME = "bearer "
/** RFC 6750 token68-ish: visible ASCII without spaces. A space inside means "not exactly one space". */
const TOKEN = /^[\x21-\x7E]+$/

/**
 * `Authorization: Bearer <key>`: the scheme case-insensitively (RFC 7235), exactly one space,
 * then the whole key (no other whitespace). Anything else is a malformed header.
 */
export const parseAuthorization = (header: string | undefined | null): Either.Either<string, Unauthenticated> => {
  if (typeof header !== "string" || header.length <= SCHEME.length) {
    return Either.left(new Unauthenticated({ message: Messages.malformedHeader }))
  }
  if (header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) {
    return Either.left(new Unauthenticated({ message: Messages.malformedHeader }))
  }
  const token = header.slice(SCHEME.length)
  if (!TOKEN.test(token)) {
    return Either.left(new Unauthenticated({ message: Messages.malformedHeader }))
  }
  return Either.right(token)
}

/** The key kind from its prefix; a token with neither prefix (or nothing after it) cannot be a key. */
export const classifyToken = (token: string): KeyKind | undefined => {
  if (token.length > 4 && token.startsWith("srv_")) return "server"
  if (token.length > 4 && token.startsWith("cli_")) return "client"
  return undefined
}

/** The credentials as the policy sees them. A client key without a project is kept, and refused later. */
export const principalOf = (key: Pick<ApiKey, "id" | "type" | "projectId" | "environment">): Principal => {
  if (key.type === "client") return { _tag: "Client", keyId: key.id, projectId: key.projectId, environment: key.environment }
  return key.projectId === null
    ? { _tag: "GlobalServer", keyId: key.id }
    : { _tag: "ProjectServer", keyId: key.id, projectId: key.projectId, environment: key.environment }
}

/** The lookup found nothing (unknown, revoked or malformed token). */
export const unknownKey = (): Unauthenticated => new Unauthenticated({ message: Messages.invalidKey })

/**
 * What a management request touches:
 * - `{ _tag: "Project", projectId }`: anything under `/v1/projects/{projectId}`;
 * - `{ _tag: "ListProjects" }`: `GET /v1/projects` (a scoped key sees only its own project);
 * - `{ _tag: "CreateProject" }`: `POST /v1/projects` (a global server key only).
 */
export type ManagementTarget =
  | { readonly _tag: "Project"; readonly projectId: string }
  | { readonly _tag: "ListProjects" }
  | { readonly _tag: "CreateProject" }

/**
 * Management endpoints need a server key; a project-scoped one only for its own project.
 * Succeeds with the project scope the caller is limited to (`null` = every project).
 */
export const authorizeManagement = (
  principal: Principal,
  target: ManagementTarget
): Either.Either<string | null, Forbidden> => {
  switch (principal._tag) {
    case "Client":
      return Either.left(new Forbidden({ message: Messages.serverKeyRequired }))
    case "GlobalServer":
      return Either.right(null)
    case "ProjectServer":
      switch (target._tag) {
        case "ListProjects":
          return Either.right(principal.projectId)
        case "CreateProject":
          return Either.left(new Forbidden({ message: Messages.projectMismatch }))
        case "Project":
          return target.projectId === principal.projectId
            ? Either.right(principal.projectId)
            : Either.left(new Forbidden({ message: Messages.projectMismatch }))
      }
  }
}

/** Where an evaluation reads from: one environment of one project. */
export interface EvaluationScope {
  readonly projectId: string
  readonly environment: string
}

/**
 * Evaluation endpoints (evaluate, flag eval, config, stream) take the project from the key. A
 * global server key must name it (`projectId` query parameter or body field, else 400); a scoped
 * key that names another project is refused; a client key without a project is refused.
 *
 * Then the environment: a key bound to one supplies it when the request names none and refuses
 * any other (403); a key bound to none needs the request to name it (400, the missing field).
 * Succeeds with the project and environment to evaluate.
 */
export const authorizeEvaluation = (
  principal: Principal,
  requestedProjectId: string | undefined,
  requestedEnvironment: string | undefined
): Either.Either<EvaluationScope, Forbidden | InvalidRequest> =>
  Either.flatMap(authorizeProject(principal, requestedProjectId), (projectId) =>
    Either.map(environmentOf(principal, requestedEnvironment), (environment) => ({ projectId, environment })))

const environmentOf = (principal: Principal, requested: string | undefined): Either.Either<string, Forbidden | InvalidRequest> => {
  const bound = principal._tag === "GlobalServer" ? null : principal.environment
  if (bound === null) {
    return requested === undefined
      ? Either.left(new InvalidRequest({ message: Messages.requestInvalid, details: [{ path: "environment", message: "is required (or use an API key bound to an environment)" }] }))
      : Either.right(requested)
  }
  return requested === undefined || requested === bound
    ? Either.right(bound)
    : Either.left(new Forbidden({ message: Messages.environmentMismatch }))
}

const authorizeProject = (
  principal: Principal,
  requestedProjectId: string | undefined
): Either.Either<string, Forbidden | InvalidRequest> => {
  switch (principal._tag) {
    case "GlobalServer":
      return requestedProjectId === undefined || requestedProjectId === ""
        ? Either.left(
          new InvalidRequest({
            message: Messages.projectIdRequired,
            details: [{ path: "projectId", message: "is required with a global server key" }]
          })
        )
        : Either.right(requestedProjectId)
    case "Client":
      if (principal.projectId === null) {
        return Either.left(new Forbidden({ message: Messages.clientKeyUnscoped }))
      }
      return sameProject(principal.projectId, requestedProjectId)
    case "ProjectServer":
      return sameProject(principal.projectId, requestedProjectId)
  }
}

const sameProject = (own: string, requested: string | undefined): Either.Either<string, Forbidden> =>
  requested === undefined || requested === own
    ? Either.right(own)
    : Either.left(new Forbidden({ message: Messages.projectMismatch }))

/**
 * The environment a server key is bound to (null: every environment of its scope). People and the
 * operator are bound to no environment: a role decides (Access.ts).
 */
export const boundEnvironment = (caller: Caller): string | null =>
  caller._tag === "GlobalServer" || caller._tag === "Person" || caller._tag === "Operator" ? null : caller.environment

/**
 * Writes of one environment's configuration (a flag's targeting there, a copy into it, a schedule
 * for it): a key bound to an environment writes only that one, as it evaluates only that one;
 * otherwise a key refused production reads could still change production.
 */
export const authorizeEnvironmentWrite = (principal: Caller, environment: string): Either.Either<void, Forbidden> => {
  const bound = boundEnvironment(principal)
  return bound === null || bound === environment ? Either.void : Either.left(new Forbidden({ message: Messages.environmentMismatch }))
}

/**
 * Reads that name one environment's configuration (its targeting, the manifest of its defaults): a
 * key bound to an environment reads only its own there, as it evaluates and downloads only its own.
 */
export const authorizeEnvironmentRead = (principal: Caller, environment: string): Either.Either<void, Forbidden> =>
  authorizeEnvironmentWrite(principal, environment)

/** Reads of every environment's configuration at once (a project's export): unbound keys and people only. */
export const authorizeAllEnvironmentsRead = (principal: Caller): Either.Either<void, Forbidden> =>
  boundEnvironment(principal) === null ? Either.void : Either.left(new Forbidden({ message: Messages.environmentMismatch }))

/**
 * Writes that change what every environment serves at once, or make what only an unbound caller
 * could then change or remove: creating or deleting a flag (a configuration in every environment),
 * changing its variations (`variationsChanged`), creating, changing or deleting a segment (the rules
 * of every environment may use it), creating an environment. Unbound keys and people only, since a
 * bound key writes only its own environment.
 */
export const authorizeAllEnvironmentsWrite = (principal: Caller): Either.Either<void, Forbidden> => {
  const bound = boundEnvironment(principal)
  return bound === null ? Either.void : Either.left(new Forbidden({ message: Messages.boundKeyWritesEveryEnvironment(bound) }))
}

/**
 * A write naming a flag's variations (`after`; undefined: names none): identical to the flag's
 * (`before`, object key order aside) it changes nothing any environment serves, so a bound key may
 * send them back as they are (a PATCH of the whole flag, a project file); changed, they are a write
 * of every environment (`authorizeAllEnvironmentsWrite`). The one rule of the PATCH and the apply.
 */
export const authorizeVariationsWrite = (principal: Caller, before: unknown, after: unknown): Either.Either<void, Forbidden> =>
  after === undefined || sameJson(before, after) ? Either.void : authorizeAllEnvironmentsWrite(principal)

/**
 * Making a key: never wider than the caller. A key bound to an environment makes only keys bound
 * to that same environment (an unbound one, or one bound elsewhere, would escape the binding).
 */
export const authorizeKeyCreation = (principal: Caller, environment: string | null): Either.Either<void, Forbidden> =>
  keySeen(boundEnvironment(principal), { environment }) ? Either.void : Either.left(new Forbidden({ message: Messages.keyWiderThanCaller }))

/**
 * Revoking a key: the same reach as making one. A development-bound key that could revoke the
 * production or unbound keys could take production's applications down from outside its binding.
 * A key it may not revoke is also one it does not list (EnvironmentView.keySeen); named by id it is
 * 403, not 404, as another environment's change request or schedule is.
 */
export const authorizeKeyRevocation = (principal: Caller, environment: string | null): Either.Either<void, Forbidden> =>
  keySeen(boundEnvironment(principal), { environment }) ? Either.void : Either.left(new Forbidden({ message: Messages.revokeWiderThanCaller }))

/**
 * `GET /v1/config` and `POST /v1/explain` (whose trace shows the rules' values) of an environment:
 * server keys always; client keys unless the environment serves them evaluated answers only
 * (`clientConfig: "evaluated"`), so rules and segment values stay off browsers.
 */
export const authorizeConfigRead = (principal: Principal, clientConfig: "full" | "evaluated"): Either.Either<void, Forbidden> =>
  principal._tag === "Client" && clientConfig === "evaluated"
    ? Either.left(new Forbidden({ message: Messages.clientConfigWithheld }))
    : Either.void
