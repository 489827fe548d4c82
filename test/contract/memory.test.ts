import { Effect, Layer } from "effect"
import * as MemoryDb from "../../adapters/memory/MemoryDb.js"
import * as MemoryStorage from "../../adapters/memory/MemoryStorage.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import * as Core from "../../src/services/Core.js"
import { allContracts } from "./All.js"
import { RawDump, runContracts } from "./Backend.js"

const rawDump = Layer.effect(
  RawDump,
  Effect.map(MemoryDb.MemoryDb, (db) => Effect.sync(() => JSON.stringify(db.dump(), (_key, value: unknown) => (value instanceof Map ? [...value] : value))))
)

const storage = Layer.provideMerge(Core.layer, Layer.merge(MemoryStorage.layer, IdGenerator.layer))

runContracts({ name: "memory", layer: Layer.provideMerge(rawDump, storage) }, allContracts)
