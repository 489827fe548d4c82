/**
 * A file sent as a request's body, as the routes that take one read it (a project file to apply, a
 * flagd flag definition file to import): YAML by its content type (parsed off the event loop,
 * ascode/YamlParser.ts), else JSON. The security middleware allowed only these content types
 * (Body.ts, YAML_BODY_ROUTES) and checked a JSON body's depth before.
 */
import type { HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import { isYamlContentType } from "../shared/Body.js"
import * as Errors from "../shared/Errors.js"
import { parseYaml } from "./ascode/YamlParser.js"

/** The body's value, or the 400 its text deserves. */
export const fileBody = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const text = yield* Effect.orElseFail(request.text, () => Errors.malformedJson())
    if (isYamlContentType(request.headers["content-type"])) {
      const parsed = yield* parseYaml(text)
      return parsed.ok ? parsed.value : yield* Effect.fail(Errors.badRequest("The request body is not valid YAML.", parsed.problems))
    }
    return yield* Effect.try({ try: (): unknown => JSON.parse(text), catch: () => Errors.malformedJson() })
  })
