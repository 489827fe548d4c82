import * as Options from "@effect/cli/Options"

/** Options shared by several commands, so their names and help text stay the same everywhere. */

export const json = Options.boolean("json").pipe(
  Options.withDescription("Print the result as JSON instead of lines/tables.")
)

export const name = Options.text("name").pipe(
  Options.withPseudoName("NAME"),
  Options.withDescription("A human-friendly name."),
  Options.optional
)

/** `--project ID` of the commands that act in one project, the first start's `default` unless given. */
export const project = Options.text("project").pipe(
  Options.withPseudoName("ID"),
  Options.withDescription("The id of the project (default: default, the project the first start makes)."),
  Options.withDefault("default")
)
