import { Layer } from "effect"
import * as ApiKeys from "./ApiKeys.js"
import * as Audit from "./Audit.js"
import * as EnvironmentCopy from "./EnvironmentCopy.js"
import * as Environments from "./Environments.js"
import * as Flags from "./Flags.js"
import * as Projects from "./Projects.js"
import * as Schedules from "./Schedules.js"
import * as Segments from "./Segments.js"
import * as Snapshots from "./Snapshots.js"
import * as StreamTokens from "./StreamTokens.js"

/**
 * The storage-backed use cases (Projects, Environments, Flags, EnvironmentCopy, Segments, ApiKeys, Snapshots, Schedules,
 * StreamTokens, Audit)
 * in one layer; it needs the storage ports and an IdGenerator.
 */
export const layer = Layer.provideMerge(
  Schedules.layer,
  Layer.mergeAll(
    Projects.layer,
    Environments.layer,
    Flags.layer,
    EnvironmentCopy.layer,
    Segments.layer,
    ApiKeys.layer,
    Snapshots.layer,
    StreamTokens.layer,
    Audit.layer
  )
)
