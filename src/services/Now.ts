import { Clock, Effect } from "effect"
import { formatTimestamp } from "../domain/definitions/Ids.js"

/** The use case's single reading of the clock, as a contract timestamp. */
export const currentTimestamp: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, formatTimestamp)
