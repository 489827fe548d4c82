/**
 * In-process A/B of targeting writes through the use case (run by hand):
 *
 *   node --import tsx bench/writes-ab.ts [REV=078bc49] [FLAGS=10000] [WRITES=1500] [ROUNDS=4]
 *
 * Loads the whole `src` and `adapters` of git revision REV (A) beside the working tree's (B), each
 * over its own SQLite file seeded alike (FLAGS string flags with 3 variations and 2 rules in each
 * of 3 environments), loads each one's production snapshot five times (so both hold what a
 * running server holds), then times WRITES `Flags.replaceTargeting` calls on scattered flags,
 * alternating A and B (who goes first alternates) for ROUNDS rounds. Prints process CPU time per
 * write, medians, and B / A.
 *
 * BENCH_AS_API=1: each write also does what the HTTP handler of its revision did to answer it.
 * Before issue 24 item 2 the handler read the project's flags and the insights back to show the
 * written flag with its usage (`Flags.list` + `Insights.usage`); since, the use case answers the
 * flag as the API shows it, so B does nothing more. Without it the two are not alike: B's use
 * case includes the usage read, A's does not.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

const [rev = "078bc49", flagsArg = "10000", writesArg = "1500", roundsArg = "4"] = process.argv.slice(2)
const FLAGS = Number(flagsArg)
const WRITES = Number(writesArg)
const ROUNDS = Number(roundsArg)
const ENVIRONMENTS = ["development", "staging", "production"]

const rulesFor = (i: number, env: string) => [
  { id: `r-${env}-in`, name: "paying", conditions: [{ attribute: "country", operator: "in", values: ["US", "CA", "MX"] }], variationKey: "a" },
  {
    id: `r-${env}-rollout`,
    conditions: [{ attribute: "version", operator: "semverGt", values: ["2.0.0"] }],
    rollout: { bucketBy: "key", seed: `seed-${i}`, variations: [{ variationKey: "a", weight: 50_000 }, { variationKey: "b", weight: 50_000 }] }
  }
]

const keyOf = (i: number) => `flag-${String(i).padStart(5, "0")}`

/** One side: its modules, a seeded database, and a function that times `count` writes. */
const AS_API = process.env["BENCH_AS_API"] === "1"

const side = async (root: string, compositionPath: string, file: string, readBack: boolean) => {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href)
  // A use case by its feature folder (src/services/<feature>/), or where older revisions kept it (flat).
  const loadUseCase = (folder: string, name: string) =>
    load(existsSync(join(root, "src/services", folder)) ? `src/services/${folder}/${name}.ts` : `src/services/${name}.ts`)
  const composition = await load(compositionPath)
  const [{ Flags }, { Projects }, { Environments }, { FlagRepository }, { Transactor }, { Snapshots }] = await Promise.all([
    loadUseCase("flags", "Flags"),
    loadUseCase("projects", "Projects"),
    loadUseCase("projects", "Environments"),
    load("src/ports/FlagRepository.ts"),
    load("src/ports/Transactor.ts"),
    loadUseCase("evaluation", "Snapshots")
  ])
  const insights = readBack ? await loadUseCase("insights", "Insights") : undefined
  const Insights = insights?.Insights
  const scope = Effect.runSync(Scope.make())
  // The old revision built its Insights service beside the storage (serving/App.ts did).
  const storage = composition.fromDatabaseUrl(`sqlite:${file}`)
  const layer = insights === undefined ? storage : Layer.provideMerge(insights.layerWith(30), storage)
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run = <A>(effect: Effect.Effect<A, unknown, unknown>) => Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<A>)
  await run(
    Effect.gen(function* () {
      yield* (yield* Projects).create({ id: "bench", name: "Benchmark" })
      for (const key of ENVIRONMENTS) yield* (yield* Environments).create("bench", { key, name: key })
      const repo = yield* FlagRepository
      const tx = yield* Transactor
      const now = new Date().toISOString()
      for (let start = 0; start < FLAGS; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, FLAGS - start) }, (_, j) => start + j)
        yield* tx.withTransaction(
          Effect.forEach(batch, (i) =>
            repo.insert("bench", {
              id: `flag-${i}`, key: keyOf(i), name: `Flag ${i}`, description: null, type: "string",
              variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }, { key: "c", value: "C" }],
              configs: ENVIRONMENTS.map((environmentKey) => ({ environmentKey, enabled: true, defaultVariationKey: "b", offVariationKey: "c", rules: rulesFor(i, environmentKey) })),
              createdAt: now, updatedAt: now, version: 1
            }), { discard: true })
        )
      }
      const snapshots = yield* Snapshots
      for (let r = 0; r < 5; r++) yield* snapshots.snapshot("bench", "production")
    })
  )
  let written = 0
  const writes = (count: number) =>
    run(
      Effect.gen(function* () {
        const flags = yield* Flags
        const start = process.cpuUsage()
        for (let n = 0; n < count; n++, written++) {
          const i = (written * 7919) % FLAGS
          const flag = yield* flags.replaceTargeting("bench", keyOf(i), {
            environment: ENVIRONMENTS[written % 3], enabled: true, defaultVariationKey: "a", offVariationKey: "c", rules: rulesFor(i, `w${written}`)
          })
          if (Insights !== undefined) yield* (yield* Insights).usage("bench", [flag], yield* flags.list("bench"))
        }
        const used = process.cpuUsage(start)
        return (used.user + used.system) / 1000 / count
      })
    )
  return { writes, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

const main = async () => {
  // Inside the checkout (.tmp/ is ignored by git), so the old sources resolve this checkout's packages.
  const scratch = fileURLToPath(new URL("../.tmp/", import.meta.url))
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(join(scratch, "writes-ab-"))
  try {
    execFileSync("tar", ["-x", "-C", dir], { input: execFileSync("git", ["archive", rev, "src", "adapters"], { maxBuffer: 1 << 28 }) })
    // The composition root moved (adapters/storage/StorageLayer.ts before issue 24, adapters/app/Composition.ts since).
    const oldComposition = execFileSync("git", ["ls-tree", "-r", "--name-only", rev, "adapters/app/Composition.ts"]).toString().trim() || "adapters/storage/StorageLayer.ts"
    const root = fileURLToPath(new URL("../", import.meta.url))
    const a = await side(dir, oldComposition, join(dir, "a.db"), AS_API)
    const b = await side(root, existsSync(join(root, "adapters/app/Composition.ts")) ? "adapters/app/Composition.ts" : "adapters/storage/StorageLayer.ts", join(dir, "b.db"), false)
    await a.writes(Math.min(200, WRITES))
    await b.writes(Math.min(200, WRITES))
    const times = { a: [] as Array<number>, b: [] as Array<number> }
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const)
      for (const which of order) times[which].push(await (which === "a" ? a : b).writes(WRITES))
    }
    await a.close()
    await b.close()
    console.log(`\n${FLAGS} flags x 3 environments, ${WRITES} writes x ${ROUNDS} rounds each; A: ${rev}, B: working tree${AS_API ? ", as the API answers them" : ""}; process CPU per write, medians\n`)
    console.log("| A | B | B / A |\n|---|---|---|")
    console.log(`| ${median(times.a).toFixed(2)} ms | ${median(times.b).toFixed(2)} ms | **${(median(times.b) / median(times.a)).toFixed(3)}** |`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
