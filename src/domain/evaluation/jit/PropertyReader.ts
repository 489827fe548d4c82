/**
 * Readers of one named property, for attribute lookups on the evaluator's hot path.
 *
 * `record[name]` with a name held in a variable is a keyed load; when conditions read different
 * names at the same site, V8 makes it megamorphic and each read goes through a global stub-cache
 * probe: about 12 to 18 ns on our benchmark machine, against about 1.5 ns for a load with the name
 * written in the source (bench notes in bench/LOG.md, Evaluator). So a condition gets a tiny
 * generated function per name,
 *
 *   function (r) { return r["country"] }
 *
 * whose load site sees one name and, usually, one shape. A call site with a few such readers
 * stays polymorphic and V8 inlines them.
 *
 * Safety: the name enters the source only through `JSON.stringify`, which always yields a valid,
 * fully escaped string literal; a computed member access with a literal is a plain property read.
 * Readers are cached per name, up to a cap (a snapshot with more distinct names reads the rest
 * with the keyed load); where code generation is unavailable (a Content-Security-Policy without
 * `unsafe-eval`, some edge runtimes) every name uses the keyed load. Both read the same property.
 */

export type PropertyReader = (record: object) => unknown

/** Distinct names with a generated reader; beyond it, readers stay correct and only lose speed. */
const MAX_GENERATED = 4096

const generated = new Map<string, PropertyReader>()
let codegen = true

const keyed = (name: string): PropertyReader => (record) => (record as Record<string, unknown>)[name]

const generate = (name: string): PropertyReader | null => {
  try {
    const reader = new Function(`"use strict"; return function readProperty(r) { return r[${JSON.stringify(name)}] }`)()
    return typeof reader === "function" ? (reader as PropertyReader) : null
  } catch {
    codegen = false // forbidden here: do not try again for every name
    return null
  }
}

/** A function that reads `record[name]`, generated (fast) when possible, else the keyed load. */
export const propertyReader = (name: string): PropertyReader => {
  const cached = generated.get(name)
  if (cached !== undefined) return cached
  const reader = codegen && generated.size < MAX_GENERATED ? generate(name) : null
  if (reader === null) return keyed(name)
  generated.set(name, reader)
  return reader
}

/** The keyed-load reader, exported so tests can check both kinds read the same. */
export const keyedReader = keyed
