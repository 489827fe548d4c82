import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CreateEnvironmentInput } from "../../../src/domain/definitions/Project.js"
import { Environments } from "../../../src/services/projects/Environments.js"
import { decode } from "../Decode.js"
import * as Shared from "../Options.js"
import * as Storage from "../Storage.js"
import { printJson, printLines, printTable } from "../Output.js"
import { UsageError } from "../UsageError.js"
import { whole } from "../Progress.js"

const project = Options.text("project").pipe(
  Options.withPseudoName("ID"),Options.withDescription("The id of the project."))

const create = Command.make(
  "create",
  {
    key: Args.text({ name: "KEY" }).pipe(Args.withDescription("The environment key, e.g. qa (^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$).")),
    project,
    name: Shared.name,
    json: Shared.json
  },
  (options) =>
    Effect.gen(function* () {
      const input = yield* decode(CreateEnvironmentInput, "environment")({
        key: options.key,
        name: Option.getOrElse(options.name, () => options.key)
      })
      yield* whole(
        Effect.tap((yield* Environments).create(options.project, input), (environment) =>
          options.json ? printJson(environment) : printLines([`ENVIRONMENT=${environment.key}`])
        ),
        (environment) => `environment ${environment.key} was created in project ${options.project} (printed above)`
      )
    })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Create an environment in a project (--name defaults to the key); every existing flag gets a disabled configuration for it."
  )
)

const list = Command.make("list", { project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const environments = yield* (yield* Environments).list(options.project)
    if (options.json) return yield* printJson({ data: environments })
    yield* printTable(
      ["KEY", "NAME", "ID", "CREATED"],
      environments.map((environment) => [environment.key, environment.name, environment.id, environment.createdAt])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List the environments of a project.")
)

export const environments = Command.make("environments", {}, () =>
  new UsageError({ message: "missing subcommand: flagport environments create|list (see --help)" })
).pipe(
  Command.withDescription("Create and list environments of a project."),
  Command.withSubcommands([create, list])
)
