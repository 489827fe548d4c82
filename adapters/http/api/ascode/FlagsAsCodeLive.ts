/**
 * Flags as code over HTTP. The apply reads its body itself (JSON, or YAML by its content type),
 * plans, checks that the caller may make every change of the plan (an environment needs manage,
 * a new project a global administrator, a key bound to an environment names and writes only that
 * one, creates and deletes no flag, changes no variations, writes no segment), then
 * applies exactly that plan (FlagsAsCode.apply refuses with 409 if the project moved meanwhile).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { CONTENT_TYPES, exportText } from "../../../../src/domain/ascode/ExportText.js"
import type { FilePlan, Plan } from "../../../../src/domain/ascode/Plan.js"
import { authorizeCaller } from "../../../../src/domain/auth/Access.js"
import * as Policy from "../../../../src/domain/auth/Policy.js"
import type { Requirement } from "../../../../src/domain/auth/Permissions.js"
import { InvalidRequest } from "../../../../src/domain/Errors.js"
import { asRecord } from "../../../../src/domain/JsonRecord.js"
import { FlagsAsCode } from "../../../../src/services/ascode/FlagsAsCode.js"
import { isYamlContentType } from "../../shared/Body.js"
import { inWords } from "../../shared/Wording.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { allowedBy, mapped, mayRead, mayReadAll, mayWrite, mayWriteAll } from "../Calling.js"
import { ManagementAccess } from "../Security.js"
import { parseYaml } from "./YamlParser.js"

const MANAGE: Requirement = { _tag: "Project", permission: "manage" }
const GLOBAL_ADMIN: Requirement = { _tag: "GlobalAdmin" }

/**
 * Whether a planned change writes what every environment serves: a flag created (a configuration in
 * every environment) or deleted, a segment created, changed or deleted. A flag's changed variations
 * are decided by Policy.authorizeVariationsWrite, the rule of a PATCH.
 */
const writesEveryEnvironment = (change: Plan["changes"][number]): boolean =>
  (change.resource === "flag" && change.action !== "update") || change.resource === "segment"

/**
 * 403 (or a person's 404) unless the caller may make every change of the plan and read every
 * environment the file names (`environmentsNamed`: a key bound to another may not name them, even unchanged).
 */
const mayApply = (plan: FilePlan) =>
  Effect.gen(function* () {
    const access = yield* ManagementAccess
    const require = (requirement: Requirement) =>
      Either.match(authorizeCaller(access.caller, requirement, plan.projectId), {
        onLeft: (refused) => Effect.fail(Errors.fromDomain(refused)),
        onRight: () => Effect.void
      })
    if (plan.changes.some((c) => c.resource === "project")) yield* require(GLOBAL_ADMIN)
    if (plan.changes.some((c) => c.resource === "environment")) yield* require(MANAGE)
    const written = new Set(plan.changes.flatMap((c) => (c.resource === "targeting" ? [c.environment!] : c.resource === "environment" && c.action === "update" ? [c.key] : [])))
    for (const environment of written) yield* mayWrite(environment)
    for (const environment of plan.environmentsNamed) yield* mayRead(environment)
    if (plan.changes.some(writesEveryEnvironment)) yield* mayWriteAll
    for (const change of plan.changes) {
      if (change.resource === "flag" && change.action === "update") {
        yield* allowedBy((caller) => Policy.authorizeVariationsWrite(caller, asRecord(change.before)?.["variations"], asRecord(change.after)?.["variations"]))
      }
    }
  })

/** A bad file's problems in words, as every 400 of the API says them (Wording.ts). */
const inWordsOf = <E>(error: E): E =>
  error instanceof InvalidRequest ? (new InvalidRequest({ message: error.message, details: error.details.map((d) => ({ path: d.path, message: inWords(d.message) })) }) as E) : error

/**
 * The body's value: YAML by its content type (parsed off the event loop, YamlParser.ts), else JSON
 * (the middleware allowed only these, and checked a JSON body's depth before).
 */
const bodyOf = (text: string, contentType: string | undefined) => {
  if (isYamlContentType(contentType)) {
    return Effect.flatMap(parseYaml(text), (parsed) =>
      parsed.ok ? Effect.succeed(parsed.value) : Effect.fail(Errors.badRequest("The request body is not valid YAML.", parsed.problems)))
  }
  return Effect.try({ try: (): unknown => JSON.parse(text), catch: () => Errors.malformedJson() })
}

export const FlagsAsCodeLive = HttpApiBuilder.group(FlagportApi, "flagsAsCode", (handlers) =>
  handlers
    .handle("export", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const code = yield* FlagsAsCode
        const format = urlParams.format ?? "yaml"
        if (urlParams.environment !== undefined && format !== "openfeature-manifest") {
          return yield* Effect.fail(Errors.badRequest("Invalid request", [{ path: "environment", message: "is only for format=openfeature-manifest" }]))
        }
        // A key bound to one environment exports only the manifest of that environment's defaults.
        yield* urlParams.environment !== undefined && format === "openfeature-manifest" ? mayRead(urlParams.environment) : mayReadAll
        const text = format === "openfeature-manifest"
          ? exportText({ manifest: yield* mapped(code.manifest(path.projectId, urlParams.environment)) })
          : exportText({ file: yield* mapped(code.exportFile(path.projectId)), format })
        return HttpServerResponse.text(text, { contentType: CONTENT_TYPES[format] })
      }))
    .handleRaw("apply", ({ path, request, urlParams }) =>
      Effect.gen(function* () {
        const text = yield* Effect.orElseFail(request.text, () => Errors.malformedJson())
        const input = yield* bodyOf(text, request.headers["content-type"])
        const code = yield* FlagsAsCode
        const options = { prune: urlParams.prune === "true" }
        const plan = yield* mapped(code.plan(path.projectId, input, options).pipe(Effect.mapError(inWordsOf)))
        yield* mayApply(plan)
        return yield* mapped(code.apply(path.projectId, input, { ...options, dryRun: urlParams.dryRun === "true", basedOn: plan }))
      }))
)
