import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ApiKeys } from "../../../src/services/auth/ApiKeys.js"
import * as Shared from "../Options.js"
import * as Storage from "../Storage.js"
import { printJson, printLines, printTable } from "../Output.js"
import { UsageError } from "../UsageError.js"
import { whole } from "../Progress.js"

const type = Options.choice("type", ["server", "client"]).pipe(
  Options.withDescription("server: management + evaluation; client: evaluation only, always scoped to a project.")
)

const project = Options.text("project").pipe(
  Options.withPseudoName("ID"),
  Options.withDescription("Scope the key to this project id (required for client keys; omit for a global server key)."),
  Options.optional
)

const environment = Options.text("environment").pipe(
  Options.withPseudoName("ENV"),
  Options.withDescription(
    "Bind the key to this environment of its project: it may then evaluate, download and stream only that one (requires --project)."
  ),
  Options.optional
)

const create = Command.make(
  "create",
  { type, project, environment, name: Shared.name, json: Shared.json },
  (options) =>
    Effect.gen(function* () {
      const projectId = Option.getOrNull(options.project)
      if (options.type === "client" && projectId === null) {
        return yield* new UsageError({ message: "a client key must be scoped to a project: pass --project ID" })
      }
      const boundTo = Option.getOrNull(options.environment)
      if (boundTo !== null && projectId === null) {
        return yield* new UsageError({ message: "a key bound to an environment must be scoped to a project: pass --project ID" })
      }
      const apiKeys = yield* ApiKeys
      // The key is shown only once: made and printed whole, never made and lost to a signal.
      yield* whole(
        Effect.tap(
          apiKeys.create({ type: options.type, projectId, environment: boundTo, name: Option.getOrElse(options.name, () => `${options.type} key`) }),
          (created) =>
            options.json
              ? printJson({
                id: created.apiKey.id,
                key: created.secret,
                type: created.apiKey.type,
                projectId: created.apiKey.projectId,
                environment: created.apiKey.environment
              })
              : printLines([`KEY=${created.secret}`])
        ),
        (created) => `key ${created.apiKey.id} was created and printed above`
      )
    })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Create an API key and print it once as KEY=<key> (--json: { id, key, type, projectId, environment }). Only its hash is stored."
  )
)

const list = Command.make("list", { json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const keys = yield* (yield* ApiKeys).list()
    if (options.json) return yield* printJson({ data: keys })
    yield* printTable(
      ["ID", "TYPE", "PROJECT", "ENVIRONMENT", "PREFIX", "NAME", "CREATED", "LAST USED", "REVOKED"],
      keys.map((key) => [
        key.id,
        key.type,
        key.projectId ?? "(global)",
        key.environment ?? "(all)",
        key.prefix,
        key.name,
        key.createdAt,
        key.lastUsedAt ?? "-",
        key.revokedAt ?? "-"
      ])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List API keys (never the keys themselves: only id, type, scope, prefix and dates).")
)

const revoke = Command.make(
  "revoke",
  { id: Args.text({ name: "ID" }).pipe(Args.withDescription("The id of the key, as shown by `keys list`.")), json: Shared.json },
  (options) =>
    Effect.gen(function* () {
      yield* whole(
        Effect.tap((yield* ApiKeys).revoke(options.id), (revoked) => (options.json ? printJson(revoked) : printLines([`REVOKED=${options.id}`]))),
        () => `key ${options.id} was revoked`
      )
    })
).pipe(
  Storage.forCommand,
  Command.withDescription("Revoke an API key by id; requests using it are refused from then on.")
)

export const keys = Command.make("keys", {}, () =>
  new UsageError({ message: "missing subcommand: flagport keys create|list|revoke (see --help)" })
).pipe(
  Command.withDescription("Create, list and revoke API keys."),
  Command.withSubcommands([create, list, revoke])
)
