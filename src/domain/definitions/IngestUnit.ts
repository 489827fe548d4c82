/**
 * Whether a unit may be stored as an experiment's unit: 1 to `ingestUnitLength` characters of
 * storable text. The SDK drops what fails it before sending, and the server's own evaluation
 * routes before recording: an evaluation context's key may be longer than a unit may be, and
 * whoever holds a client key chooses it. Free of Effect, so the SDK imports it.
 */
import { isStorableText } from "./TextCheck.js"
import { limit } from "../Limits.js"

const MAX_UNIT_LENGTH = limit("ingestUnitLength")

export const isIngestibleUnit = (unit: unknown): unit is string =>
  typeof unit === "string" && unit.length > 0 && unit.length <= MAX_UNIT_LENGTH && isStorableText(unit)
