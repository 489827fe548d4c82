/**
 * Evaluating flags in-process, with no HTTP and no database: the services over the memory
 * adapter, then the same evaluator the server uses (`Evaluate.compile` once per snapshot,
 * `Evaluate.evaluate` per check, synchronous and total).
 *
 *   npx tsx examples/evaluate-in-process.ts
 */
import { Effect, Layer } from "effect"
import { pathToFileURL } from "node:url"
import * as NodeCrypto from "flagport/crypto"
import * as MemoryStorage from "flagport/memory"
import { UseCases, Environments, Evaluate, Flags, IdGenerator, Projects, Snapshots } from "flagport"

/** Every use case over in-memory storage. State lives as long as the layer. */
export const layer = UseCases.layer.pipe(Layer.provide(Layer.merge(IdGenerator.layer, NodeCrypto.layer)), Layer.provideMerge(MemoryStorage.layer))

/** Defines a project, an environment and a flag with a rule and a 50% rollout, as an app could at boot. */
export const setup = Effect.gen(function* () {
  yield* (yield* Projects.Projects).create({ id: "shop", name: "Shop" })
  yield* (yield* Environments.Environments).create("shop", { key: "production", name: "Production" })
  const flags = yield* Flags.Flags
  yield* flags.create("shop", {
    key: "new-checkout",
    name: "New checkout",
    type: "boolean",
    variations: [
      { key: "on", value: true },
      { key: "off", value: false }
    ]
  })
  yield* flags.replaceTargeting("shop", "new-checkout", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [
      // Everyone in Germany gets the new checkout...
      { id: "germany", conditions: [{ attribute: "country", operator: "in", values: ["DE"] }], variationKey: "on" },
      // ...and half of everyone else, decided by a stable hash of the context key.
      {
        id: "half",
        conditions: [],
        rollout: {
          variations: [
            { variationKey: "on", weight: 50_000 },
            { variationKey: "off", weight: 50_000 }
          ]
        }
      }
    ]
  })
})

/** Loads the environment's snapshot once and compiles it; checks are then plain function calls. */
export const compiledProduction = Effect.gen(function* () {
  const { snapshot } = yield* (yield* Snapshots.Snapshots).snapshot("shop", "production")
  return Evaluate.compile(snapshot)
})

/** The whole example as one effect: set up, compile, evaluate a few contexts. */
export const program = Effect.gen(function* () {
  yield* setup
  const compiled = yield* compiledProduction
  return {
    german: Evaluate.evaluate(compiled, "new-checkout", { key: "user-1", attributes: { country: "DE" } }),
    others: ["user-1", "user-2", "user-3", "user-4"].map((key) =>
      Evaluate.evaluate(compiled, "new-checkout", { key, attributes: { country: "US" } })
    ),
    unknown: Evaluate.evaluate(compiled, "no-such-flag", { key: "user-1" })
  }
}).pipe(Effect.provide(layer))

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const results = await Effect.runPromise(program)
  console.log(JSON.stringify(results, null, 2))
}
