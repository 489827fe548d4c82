/**
 * The OpenFeature CLI's flag manifest (`openfeature generate` reads it to write typed accessors
 * in Go, Java, C#, Python, React...): `{ "flags": { key: { flagType, defaultValue, description } } }`,
 * as its schema `schema/v0/flag-manifest.json` in open-feature/cli defines it.
 *
 * `defaultValue` is the value the flag serves by default in one environment (its
 * `defaultVariationKey`'s value there): the value an application gets when nothing matches, and
 * the one the generated accessors fall back to. Types: boolean -> boolean, string -> string, json
 * -> object, number -> integer when every variation's value is an integer, else float.
 */
import type { Flag } from "../definitions/Flag.js"

export interface ManifestFlag {
  readonly flagType: "boolean" | "string" | "integer" | "float" | "object"
  readonly defaultValue: unknown
  readonly description?: string
}

export interface OpenFeatureManifest {
  readonly flags: { readonly [key: string]: ManifestFlag }
}

const flagTypeOf = (flag: Flag): ManifestFlag["flagType"] => {
  switch (flag.type) {
    case "boolean":
    case "string":
      return flag.type
    case "json":
      return "object"
    case "number":
      return flag.variations.every((v) => Number.isInteger(v.value)) ? "integer" : "float"
  }
}

/** The manifest of `flags` with default values from `environment` (flags sorted by key). */
export const openFeatureManifest = (flags: ReadonlyArray<Flag>, environment: string): OpenFeatureManifest => {
  const entries = [...flags]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((flag): [string, ManifestFlag] => {
      const config = flag.configs.find((c) => c.environmentKey === environment)
      const variationKey = config?.defaultVariationKey ?? flag.variations[0]?.key
      const defaultValue = flag.variations.find((v) => v.key === variationKey)?.value ?? flag.variations[0]?.value ?? null
      const description = flag.description ?? (flag.name !== flag.key ? flag.name : undefined)
      return [flag.key, { flagType: flagTypeOf(flag), defaultValue, ...(description === undefined ? {} : { description }) }]
    })
  return { flags: Object.fromEntries(entries) }
}
