/**
 * `flagport codegen --project P [--out FILE]`: the TypeScript module declaring the project's flag
 * keys and types (src/domain/codegen/TypeScriptModule.ts), for the SDK's typed getters. It reads
 * the database like the other commands, or, with `--url URL --key KEY`, asks a running server
 * (`GET /v1/projects/P/codegen/typescript`, the same text).
 */
import { writeFileSync } from "node:fs"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { typescriptModule } from "../../../src/domain/codegen/TypeScriptModule.js"
import { Flags } from "../../../src/services/flags/Flags.js"
import { note } from "../Output.js"
import * as Storage from "../Storage.js"
import { serverOptions, serverTarget } from "../ServerTarget.js"
import { say, whole } from "../Progress.js"

/** The server could not be asked, or refused. */
export class CodegenRequestFailed extends Data.TaggedError("CodegenRequestFailed")<{ readonly message: string }> {}

const fromDatabase = (projectId: string) =>
  Effect.flatMap(Flags, (flags) => Effect.map(flags.list(projectId), (list) => typescriptModule(projectId, list))).pipe(Storage.withDatabase)

const fromServer = (url: string, key: string, projectId: string) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(`${url.replace(/\/+$/, "")}/v1/projects/${encodeURIComponent(projectId)}/codegen/typescript`, {
        headers: { authorization: `Bearer ${key}` }
      })
      const text = await response.text()
      if (response.status === 200) return { ok: true as const, text }
      let message = `${response.status} ${response.statusText}`
      try {
        const body = JSON.parse(text) as { error?: { message?: string } }
        if (typeof body.error?.message === "string") message = `${response.status}: ${body.error.message}`
      } catch {
        // not the envelope
      }
      return { ok: false as const, text: message }
    },
    catch: (error) => new CodegenRequestFailed({ message: `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}` })
  }).pipe(Effect.flatMap((reply) => (reply.ok ? Effect.succeed(reply.text) : Effect.fail(new CodegenRequestFailed({ message: `the server refused: ${reply.text}` })))))

export const codegen = Command.make(
  "codegen",
  {
    project: Options.text("project").pipe(Options.withPseudoName("ID"), Options.withDescription("The project whose flags to declare.")),
    out: Options.file("out").pipe(Options.withDescription("Write the module to FILE instead of stdout."), Options.optional),
    ...serverOptions({
      url: "Ask the Flagport server at URL instead of reading DATABASE_URL (with a key from FLAGPORT_KEY or --key).",
      key: "A server key for --url."
    })
  },
  (options) =>
    Effect.gen(function* () {
      yield* say(Option.match(options.out, { onNone: () => "nothing was changed (codegen only reads)", onSome: (file) => `${file} was not written` }))
      const server = yield* serverTarget(options.url, options.key, "reads DATABASE_URL")
      const text = Option.isSome(server)
        ? yield* fromServer(server.value.url, server.value.key, options.project)
        : yield* fromDatabase(options.project)
      if (Option.isNone(options.out)) return yield* Effect.sync(() => void process.stdout.write(text))
      const file = options.out.value
      yield* whole(Effect.zipRight(Effect.sync(() => writeFileSync(file, text)), note(`wrote ${file}`)), () => `${file} was written whole`)
    })
).pipe(
  Command.withDescription(
    "Write a TypeScript module declaring the project's flag keys and types, for createClient<Flags>() of flagport/client (unknown keys then fail to compile)."
  )
)
