import { Layer } from "effect"
import * as MemoryDb from "./MemoryDb.js"
import * as Repositories from "./MemoryRepositories.js"

/**
 * Every storage port in memory, over one fresh MemoryDb (also provided, so that other memory
 * adapters, such as the webhook repository, can join its transactions). State lives as long as
 * the layer: nothing is persisted.
 */
export const layer = Layer.mergeAll(
  Repositories.projectRepository,
  Repositories.flagRepository,
  Repositories.segmentRepository,
  Repositories.apiKeyRepository,
  Repositories.eventOutbox
).pipe(Layer.provideMerge(Repositories.environmentRepository), Layer.provideMerge(MemoryDb.layer))
