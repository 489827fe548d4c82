/**
 * Whether a variation's value has its flag's type: the one check behind write-time validation
 * (which reports `problem`) and the compiler (which makes such a flag an ERROR).
 */
import type { FlagType } from "./Flag.js"
import { isJson } from "./JsonValue.js"

interface TypeCheck {
  readonly accepts: (value: unknown) => boolean
  /** Validation's message for a value that `accepts` refuses. */
  readonly problem: string
}

export const VALUE_TYPES: Readonly<Record<FlagType, TypeCheck>> = {
  boolean: { accepts: (v) => typeof v === "boolean", problem: "must be a JSON boolean (true or false) for a boolean flag" },
  string: { accepts: (v) => typeof v === "string", problem: "must be a string for a string flag" },
  number: { accepts: (v) => typeof v === "number" && Number.isFinite(v), problem: "must be a finite number for a number flag" },
  json: { accepts: (v) => isJson(v), problem: "must be a JSON value" }
}

/** The check for a flag type, or undefined for a string that is not one (a hand-made snapshot). */
export const typeCheck = (type: unknown): TypeCheck | undefined =>
  typeof type === "string" && Object.prototype.hasOwnProperty.call(VALUE_TYPES, type) ? VALUE_TYPES[type as FlagType] : undefined
