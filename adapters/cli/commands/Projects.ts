import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CreateProjectInput } from "../../../src/domain/definitions/Project.js"
import { Projects } from "../../../src/services/projects/Projects.js"
import { decode } from "../Decode.js"
import * as Shared from "../Options.js"
import * as Storage from "../Storage.js"
import { printJson, printLines, printTable } from "../Output.js"
import { UsageError } from "../UsageError.js"
import { whole } from "../Progress.js"

const create = Command.make(
  "create",
  {
    id: Args.text({ name: "ID" }).pipe(Args.withDescription("The project id, a slug: ^[a-z0-9][a-z0-9_-]{0,62}$.")),
    name: Shared.name,
    json: Shared.json
  },
  (options) =>
    Effect.gen(function* () {
      const input = yield* decode(CreateProjectInput, "project")({
        id: options.id,
        name: Option.getOrElse(options.name, () => options.id)
      })
      yield* whole(
        Effect.tap((yield* Projects).create(input), (project) => (options.json ? printJson(project) : printLines([`PROJECT_ID=${project.id}`]))),
        (project) => `project ${project.id} was created (printed above)`
      )
    })
).pipe(
  Storage.forCommand,
  Command.withDescription("Create a project (--name defaults to the id). Prints PROJECT_ID=<id>.")
)

const list = Command.make("list", { json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const projects = yield* (yield* Projects).list()
    if (options.json) return yield* printJson({ data: projects })
    yield* printTable(
      ["ID", "NAME", "CREATED"],
      projects.map((project) => [project.id, project.name, project.createdAt])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List projects.")
)

export const projects = Command.make("projects", {}, () =>
  new UsageError({ message: "missing subcommand: flagport projects create|list (see --help)" })
).pipe(
  Command.withDescription("Create and list projects."),
  Command.withSubcommands([create, list])
)
