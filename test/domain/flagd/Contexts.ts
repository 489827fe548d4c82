/**
 * Contexts for the parity tests. Each attribute has the type an application gives it (an email is
 * a string, an age a number, a version a version string), or is absent or null: the domain on
 * which the import is exact (docs/guide/coming-from-flagd.md lists what differs outside it). Values are
 * drawn from the same pools as the literals of the definitions, so conditions match often.
 */
import { FastCheck as fc } from "effect"
import type { Ctx } from "./Parity.js"

export const STRINGS = [
  "a@faas.com", "b@example.com", "ballmer@macrosoft.com", "admin", "user", "FR", "US", "yellow", "pro", "team",
  "free", "", "abc-123", "123-xyz", "abcxyz", "premium", "gold", "faas"
] as const
export const VERSIONS = [
  "1.0.0", "1.0.0+build", "1.1.0", "1.2.3", "2.0.0", "2.0.0-rc.1", "2.0.0-0", "2.1.0", "2.1.5", "3.0.0", "3.0.9", "3.1.0",
  "0.9.0", "10.0.0", "junk", "2.0.0.0", "1.0.0-alpha"
] as const

export const STRING_ATTRIBUTES = ["email", "country", "plan", "role", "color", "id", "tier"] as const
export const NUMBER_ATTRIBUTES = ["age", "score"] as const
export const BOOLEAN_ATTRIBUTES = ["beta"] as const

const number = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom(0, 17.5, 18, 65, -0.5))

const ATTRIBUTE_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  ...Object.fromEntries(STRING_ATTRIBUTES.map((a) => [a, fc.constantFrom(...STRINGS)])),
  ...Object.fromEntries(NUMBER_ATTRIBUTES.map((a) => [a, number])),
  beta: fc.boolean(),
  version: fc.constantFrom(...VERSIONS)
}

/** Present with a typed value (most of the time), null, or absent. */
const attributes: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(...Object.entries(ATTRIBUTE_VALUES).map(([name, value]) =>
    fc.oneof({ weight: 6, arbitrary: value.map((v) => [name, v] as const) }, { weight: 1, arbitrary: fc.constant([name, null] as const) }, { weight: 2, arbitrary: fc.constant(null) })
  ))
  .map((entries) => Object.fromEntries(entries.filter((e): e is readonly [string, unknown] => e !== null)))

export const contextArbitrary: fc.Arbitrary<Ctx> = fc.record(
  { key: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }).map((i) => `user-${i}`) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }).map(String) }), attributes },
  { requiredKeys: ["attributes"] }
)

/** A fixed sample of contexts (seeded), for the hand-written corpus. */
export const sampleContexts = (n: number, seed: number): ReadonlyArray<Ctx> => fc.sample(contextArbitrary, { numRuns: n, seed })
