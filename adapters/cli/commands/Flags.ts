/**
 * `flagport flags list|get|enable|disable`: what a person on a server with only a terminal needs
 * in an incident. Writes go through the same use case as `PUT .../targeting` (Flags.replaceTargeting),
 * so they are validated, versioned, audited (actor `cli`, Main.ts) and announced to streams and
 * webhooks like any other; only `enabled` changes, the rest of the configuration is sent back as read.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Flag } from "../../../src/domain/definitions/Flag.js"
import type { EnvironmentConfig } from "../../../src/domain/definitions/Targeting.js"
import { environmentNotFound } from "../../../src/domain/NotFound.js"
import { Flags } from "../../../src/services/flags/Flags.js"
import { preconditionFailed } from "../../../src/services/flags/FlagVersions.js"
import * as Shared from "../Options.js"
import { printJson, printLines, printTable } from "../Output.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"
import { whole } from "../Progress.js"

const project = Shared.project

const environment = Options.text("environment").pipe(
  Options.withPseudoName("ENV"),
  Options.withDescription("The environment key, e.g. production.")
)

const flagKey = Args.text({ name: "FLAG" }).pipe(Args.withDescription("The flag key."))

const ifVersion = Options.integer("if-version").pipe(
  Options.withPseudoName("N"),
  Options.withDescription("Change the flag only while it is at version N (as If-Match does); else exit 1 naming the current version."),
  Options.optional
)

const onOff = (config: EnvironmentConfig | undefined) => (config === undefined ? "-" : config.enabled ? "on" : "off")

const configIn = (flag: Flag, environmentKey: string) => flag.configs.find((config) => config.environmentKey === environmentKey)

const list = Command.make("list", { project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const flags = yield* (yield* Flags).list(options.project)
    if (options.json) return yield* printJson({ data: flags })
    const environments = [...new Set(flags.flatMap((flag) => flag.configs.map((config) => config.environmentKey)))]
    yield* printTable(
      ["KEY", "TYPE", "VERSION", ...environments.map((key) => key.toUpperCase()), "NAME"],
      flags.map((flag) => [flag.key, flag.type, String(flag.version), ...environments.map((key) => onOff(configIn(flag, key))), flag.name])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List the flags of a project, on or off in each environment.")
)

const describeRule = (rule: EnvironmentConfig["rules"][number]) =>
  `${rule.name ?? rule.id}: ${rule.conditions.length} condition(s) -> ${rule.variationKey ?? "rollout"}`

const get = Command.make("get", { flag: flagKey, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const flag = yield* (yield* Flags).get(options.project, options.flag)
    if (options.json) return yield* printJson(flag)
    yield* printLines([
      `FLAG=${flag.key}`,
      `NAME=${flag.name}`,
      `TYPE=${flag.type}`,
      `VERSION=${flag.version}`,
      `VARIATIONS=${flag.variations.map((variation) => `${variation.key}=${JSON.stringify(variation.value)}`).join(" ")}`,
      ""
    ])
    yield* printTable(
      ["ENVIRONMENT", "STATE", "DEFAULT", "OFF", "RULES"],
      flag.configs.map((config) => [
        config.environmentKey,
        onOff(config),
        config.defaultVariationKey,
        config.offVariationKey,
        config.rules.length === 0 ? "-" : config.rules.map(describeRule).join("; ")
      ])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Show one flag: its variations and, per environment, on or off, default, off variation and rules.")
)

/**
 * Sets `enabled` in one environment. The write names the version it read (or `--if-version`), so
 * a change made in between by someone else is refused (412 in the API) instead of overwritten.
 */
const setEnabled = (name: "enable" | "disable", enabled: boolean) =>
  Command.make(name, { flag: flagKey, project, environment, ifVersion, json: Shared.json }, (options) =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const flag = yield* flags.get(options.project, options.flag)
      const config = configIn(flag, options.environment)
      if (config === undefined) return yield* environmentNotFound(options.project, options.environment, flag.configs.map((c) => c.environmentKey))
      const ifMatch = Option.getOrElse(options.ifVersion, () => flag.version)
      // Already so: nothing to write (no new version, no audit entry), but a wrong --if-version still fails.
      if (config.enabled === enabled && ifMatch !== flag.version) return yield* preconditionFailed(flag.key, flag.version)
      const writing = config.enabled === enabled
        ? Effect.succeed(flag)
        : flags.replaceTargeting(
          options.project,
          flag.key,
          {
            environment: config.environmentKey,
            enabled,
            defaultVariationKey: config.defaultVariationKey,
            offVariationKey: config.offVariationKey,
            prerequisites: config.prerequisites ?? [],
            rules: config.rules
          },
          { ifMatch }
        )
      yield* whole(
        Effect.tap(writing, (written) =>
          options.json
            ? printJson(written)
            : printLines([`FLAG=${written.key}`, `ENVIRONMENT=${options.environment}`, `ENABLED=${enabled}`, `VERSION=${written.version}`])
        ),
        (written) => `flag ${written.key} is ${enabled ? "on" : "off"} in ${options.environment} (version ${written.version})`
      )
    })
  )

const enable = setEnabled("enable", true).pipe(
  Storage.forCommand,
  Command.withDescription("Turn a flag on in one environment (its rules and default then apply).")
)

const disable = setEnabled("disable", false).pipe(
  Storage.forCommand,
  Command.withDescription("Turn a flag off in one environment (everyone gets its off variation).")
)

export const flags = Command.make("flags", {}, () =>
  new UsageError({ message: "missing subcommand: flagport flags list|get|enable|disable (see --help)" })
).pipe(
  Command.withDescription("List, show, enable and disable flags."),
  Command.withSubcommands([list, get, enable, disable])
)
