/**
 * The flagd import over HTTP: the body read as a file (JSON or YAML, FileBody.ts) and handed to the
 * FlagdImport use case as the caller. Outside a dry run, a refused flag (without `skipUnsupported`)
 * imported nothing: the answer is then 400 with every refusal at its path, as a bad project file's
 * apply is, rather than a 200 that a script could read as success.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { FlagdImport } from "../../../../src/services/flagd/FlagdImport.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { fileBody } from "../FileBody.js"

export const FlagdLive = HttpApiBuilder.group(FlagportApi, "flagd", (handlers) =>
  handlers.handleRaw("importFlagd", ({ path, request, urlParams }) =>
    Effect.gen(function* () {
      const document = yield* fileBody(request)
      const dryRun = urlParams.dryRun === "true"
      const report = yield* mapped(
        Effect.flatMap(FlagdImport, (flagd) => flagd.importFlags(path.projectId, urlParams.environment, document, { dryRun, skipUnsupported: urlParams.skipUnsupported === "true" }))
      )
      const refused = report.flags.flatMap((flag) => (flag.result === "refused" ? [{ path: flag.path, message: flag.reason }] : []))
      if (!dryRun && refused.length > 0) {
        return yield* Effect.fail(Errors.badRequest(`${refused.length} flag(s) of the file cannot be imported; nothing was imported (send skipUnsupported=true to import the others)`, refused))
      }
      return report
    }))
)
