/**
 * The `matches` engine for the client, loaded on demand. re2js is about twice the size of the
 * rest of the client, and most configurations have no `matches` condition, so the engine module
 * (src/domain/conditions/Re2.ts) is a dynamic `import()`: bundlers put it in its own chunk, fetched
 * only the first time a configuration needs it. The client awaits `regexEngineFor` before it
 * installs a configuration, so a `matches` condition is never evaluated without its engine.
 */
import { type ConfigSnapshot, OPERATOR_TABLE, plainConditions, type RegexEngine } from "./Core.js"

/**
 * Given to the compiler for a configuration without regular expressions. Never called then; if it
 * were, the flag would compile to an ERROR result (its off variation), never to a wrong answer.
 */
const WITHOUT_REGEX: RegexEngine = {
  compile: () => {
    throw new Error("a matches condition was compiled without the regular expression engine")
  }
}

type Conditions = ConfigSnapshot["segments"][number]["conditions"]

// A checked configuration names known operators only, in groups too (ConfigCheck.ts).
const hasRegex = (conditions: Conditions): boolean => plainConditions(conditions).some((c) => OPERATOR_TABLE[c.operator].values === "regex")

/** True when a (checked) configuration has a condition whose values are regular expressions. */
export const usesRegex = (snapshot: ConfigSnapshot): boolean =>
  snapshot.flags.some((flag) => flag.rules.some((rule) => hasRegex(rule.conditions))) || snapshot.segments.some((segment) => hasRegex(segment.conditions))

let loaded: RegexEngine | undefined
let loading: Promise<RegexEngine> | undefined

const load = (): Promise<RegexEngine> => {
  loading ??= import("../../src/domain/conditions/Re2.js").then(
    (module) => (loaded = module.engine),
    (error: unknown) => {
      loading = undefined // a failed load (a chunk the network lost) is tried again with the next configuration
      throw new Error(`cannot load the regular expression engine of the matches operator: ${error instanceof Error ? error.message : String(error)}`)
    }
  )
  return loading
}

/** The engine to compile `snapshot` with: loaded first when the configuration needs it. */
export const regexEngineFor = (snapshot: ConfigSnapshot): Promise<RegexEngine> =>
  loaded !== undefined ? Promise.resolve(loaded) : usesRegex(snapshot) ? load() : Promise.resolve(WITHOUT_REGEX)
