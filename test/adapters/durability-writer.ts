/**
 * Child process of Durability.test.ts. Opens the storage at the DATABASE_URL given as argv[2]
 * and writes forever: for n = 1, 2, ... it creates flag `f-n` and replaces its targeting, then
 * prints `ACK n <version>` only after both writes committed. The parent SIGKILLs it at some point
 * and then checks that every acknowledged write is in the database.
 */
import { Effect, Layer } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"

const url = process.argv[2]
if (url === undefined) throw new Error("usage: durability-writer.ts DATABASE_URL")

const program = Effect.gen(function* () {
  const projects = yield* Projects
  const environments = yield* Environments
  const flags = yield* Flags
  yield* projects.create({ id: "durable", name: "Durable" })
  yield* environments.create("durable", { key: "production", name: "Production" })
  process.stdout.write("READY\n")
  for (let n = 1; ; n++) {
    yield* flags.create("durable", {
      key: `f-${n}`,
      type: "number",
      variations: [
        { key: "low", value: n },
        { key: "high", value: n * 1000 }
      ]
    })
    const flag = yield* flags.replaceTargeting("durable", `f-${n}`, {
      environment: "production",
      enabled: true,
      defaultVariationKey: "high",
      offVariationKey: "low",
      rules: [{ id: `r-${n}`, conditions: [{ attribute: "n", operator: "gte", values: [n] }], variationKey: "low" }]
    })
    // Pipes are written synchronously on Linux: the line is out before the next write starts.
    process.stdout.write(`ACK ${n} ${flag.version}\n`)
  }
})

Effect.runPromise(program.pipe(Effect.provide(Layer.orDie(StorageLayer.fromDatabaseUrl(url))))).catch((error) => {
  process.stderr.write(`writer failed: ${String(error)}\n`)
  process.exit(1)
})
