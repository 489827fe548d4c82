/**
 * The `Flags` use case: one tag over two halves, the flag's definition (FlagDefinitions.ts:
 * create, list, get, patch, remove) and its targeting per environment (FlagTargeting.ts:
 * replaceTargeting, targeting, validateTargeting), which share how a flag is read (FlagReads.ts).
 * One tag, so a caller that creates a flag and then targets it (the flagd import, flags as code,
 * the CLI, tests) asks for one service, and the spans keep their names (`Flags.replaceTargeting`).
 *
 * Every flag it answers is the flag as the API shows it (`FlagWithUsage`: each configuration's
 * `lastEvaluatedAt`, and `stale`; FlagUsage.ts), whoever calls: HTTP, the CLI or an Effect host.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as FlagDefinitions from "./FlagDefinitions.js"
import * as FlagReads from "./FlagReads.js"
import * as FlagTargeting from "./FlagTargeting.js"
import type { WriteOptions as FlagWriteOptions } from "./FlagVersions.js"

/** Preconditions of a write to an existing flag (FlagVersions.ts): `ifMatch`, `flagId`. */
export type WriteOptions = FlagWriteOptions

/** The definitions half (FlagDefinitions.ts). */
export type FlagDefinitionsShape = FlagDefinitions.FlagDefinitionsShape

/** The targeting half (FlagTargeting.ts). */
export type FlagTargetingShape = FlagTargeting.FlagTargetingShape

export interface FlagsShape extends FlagDefinitionsShape, FlagTargetingShape {}

export class Flags extends Context.Tag("@flagport/services/Flags")<Flags, FlagsShape>() {}

export const make = Effect.gen(function* () {
  const reads = yield* FlagReads.make
  const definitions = yield* FlagDefinitions.make(reads)
  const targeting = yield* FlagTargeting.make(reads)
  return Flags.of({ ...definitions, ...targeting })
})

export const layer = Layer.effect(Flags, make)
