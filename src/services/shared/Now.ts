import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { formatTimestamp } from "../../domain/definitions/Ids.js"

/** The use case's single reading of the clock, as a contract timestamp. */
export const currentTimestamp: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, formatTimestamp)
