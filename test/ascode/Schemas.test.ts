/**
 * The published schemas: the project file's JSON Schema (generated from the Effect Schema) equals
 * the committed docs/project-file.schema.json (UPDATE_GOLDEN=1 rewrites it) and accepts what export
 * writes while refusing a wrong operator (checked with ajv, as an editor would); the OpenFeature
 * manifest export validates against the OpenFeature CLI's own manifest schema (vendored fixture).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Ajv } from "ajv"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { projectFileJsonSchema } from "../../src/domain/ascode/ProjectFileSchema.js"
import { FlagsAsCode } from "../../src/services/ascode/FlagsAsCode.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { richFile } from "./RichProject.js"

const GOLDEN = new URL("../../docs/project-file.schema.json", import.meta.url)
const OPENFEATURE = new URL("fixtures/openfeature-flag-manifest.schema.json", import.meta.url)

const ajv = () => new Ajv({ allErrors: true, strict: false })

describe("the project file's JSON Schema", () => {
  it("equals the committed docs/project-file.schema.json", () => {
    const generated = `${JSON.stringify(projectFileJsonSchema(), null, 2)}\n`
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, generated)
    expect(generated).toBe(readFileSync(GOLDEN, "utf8"))
  })

  it.effect("accepts every file export writes and refuses a wrong operator or an unknown field", () =>
    Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("rich", richFile())
      const exported = yield* code.exportFile("rich")
      const validate = ajv().compile(projectFileJsonSchema())
      expect(validate(exported), JSON.stringify(validate.errors)).toBe(true)
      expect(validate(richFile()), JSON.stringify(validate.errors)).toBe(true)
      const wrong = structuredClone(richFile()) as unknown as { flags: Array<{ environments: Array<{ rules: Array<{ conditions: Array<{ operator: string }> }> }> }>; extra?: boolean }
      wrong.flags[0]!.environments[0]!.rules[0]!.conditions[0]!.operator = "equals"
      expect(validate(wrong)).toBe(false)
      expect(validate({ ...richFile(), extra: true })).toBe(false)
    }).pipe(Effect.provide(StorageLayer.memoryStorage)))
})

describe("--format openfeature-manifest", () => {
  it.effect("validates against the OpenFeature CLI's manifest schema, with each flag's type and default value", () =>
    Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("rich", richFile())
      yield* (yield* Flags).create("rich", { key: "retries", type: "number", variations: [{ key: "few", value: 2 }, { key: "many", value: 9 }] })
      const validate = ajv().compile(JSON.parse(readFileSync(OPENFEATURE, "utf8")))
      for (const environment of ["development", "production"]) {
        const manifest = yield* code.manifest("rich", environment)
        expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true)
      }
      const production = yield* code.manifest("rich", "production")
      expect(production.flags).toEqual({
        checkout: { flagType: "boolean", defaultValue: false, description: "The one-page checkout" },
        "kill-switch": { flagType: "string", defaultValue: "live" },
        limits: { flagType: "float", defaultValue: 10 },
        retries: { flagType: "integer", defaultValue: 2 },
        theme: { flagType: "object", defaultValue: { dark: true, colors: ["black", "grey"] } }
      })
      // The first environment by default: theme serves light there (its disabled default).
      expect((yield* code.manifest("rich")).flags.theme!.defaultValue).toEqual({ dark: false, colors: ["white"] })
      expect((yield* Effect.flip(code.manifest("rich", "staging")))._tag).toBe("ResourceNotFound")
      // A manifest the schema refuses (the check can fail): a boolean flag with a string default.
      expect(validate({ flags: { x: { flagType: "boolean", defaultValue: "yes" } } })).toBe(false)
    }).pipe(Effect.provide(StorageLayer.memoryStorage)))
})
