import { Effect, Layer } from "effect"
import * as MemoryDb from "../../adapters/memory/MemoryDb.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { allContracts } from "./All.js"
import { RawDump, runContracts, withWebhooks } from "./Backend.js"

/** The committed value of every MemoryDb cell, Maps included. */
const rawDump = Layer.effect(
  RawDump,
  Effect.map(MemoryDb.MemoryDb, (db) =>
    Effect.sync(() => JSON.stringify(db.dump(), (_key, value: unknown) => (value instanceof Map ? [...value] : value)))
  )
)

runContracts({ name: "memory", layer: withWebhooks(Layer.provideMerge(rawDump, StorageLayer.memoryStorage)) }, allContracts)
