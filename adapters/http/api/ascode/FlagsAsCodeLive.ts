/**
 * Flags as code over HTTP. The apply reads its body itself (JSON, or YAML by its content type)
 * and hands it to the use case, which plans, decides whether the caller may make every change of
 * the plan (domain/ascode/PlanAccess.ts) and applies exactly that plan (409 if the project moved meanwhile).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { CONTENT_TYPES } from "../../../../src/domain/ascode/ExportText.js"
import { InvalidRequest } from "../../../../src/domain/Errors.js"
import { FlagsAsCode } from "../../../../src/services/ascode/FlagsAsCode.js"
import { inWords } from "../../shared/Wording.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { fileBody } from "../FileBody.js"

/** A bad file's problems in words, as every 400 of the API says them (Wording.ts). */
const inWordsOf = <E>(error: E): E =>
  error instanceof InvalidRequest ? (new InvalidRequest({ message: error.message, details: error.details.map((d) => ({ path: d.path, message: inWords(d.message) })) }) as E) : error

export const FlagsAsCodeLive = HttpApiBuilder.group(FlagportApi, "flagsAsCode", (handlers) =>
  handlers
    .handle("export", ({ path, urlParams: { environment, format = "yaml" } }) =>
      Effect.flatMap(FlagsAsCode, (code) => Effect.map(mapped(code.exportText(path.projectId, format, environment)), (text) => HttpServerResponse.text(text, { contentType: CONTENT_TYPES[format] }))))
    .handleRaw("apply", ({ path, request, urlParams }) =>
      Effect.gen(function* () {
        const input = yield* fileBody(request)
        const code = yield* FlagsAsCode
        return yield* mapped(code.apply(path.projectId, input, {
          prune: urlParams.prune === "true",
          dryRun: urlParams.dryRun === "true",
          ...(urlParams.plan === undefined ? {} : { planFingerprint: urlParams.plan })
        }).pipe(Effect.mapError(inWordsOf)))
      }))
)
