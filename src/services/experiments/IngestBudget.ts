/**
 * The hourly budget of items each key may send (`ingestKeyHour`), one for `POST /v1/exposures` and
 * `POST /v1/track` together: a key flooding one route has none left for the other.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { KeyHourItems } from "../../domain/experiments/Exposure.js"

export class IngestBudget extends Context.Tag("@flagport/services/IngestBudget")<IngestBudget, KeyHourItems>() {}

/** One budget per process (each server counts what it was sent); UseCases.ts gives both routes this one. */
export const layer = Layer.sync(IngestBudget, () => new KeyHourItems())
