/**
 * The published JSON Schema of the project file, generated from the one definition
 * (ProjectFile.ts). Committed as docs/project-file.schema.json (a test holds it equal) and served
 * at `PROJECT_FILE_SCHEMA_PATH`, so an editor checks a file as it is typed:
 * `# yaml-language-server: $schema=https://flags.example.com/schemas/project-file.json`.
 */
import * as JSONSchema from "effect/JSONSchema"
import { ProjectFile } from "./ProjectFile.js"

export const PROJECT_FILE_SCHEMA_PATH = "/schemas/project-file.json"

/**
 * Effect marks each `unknown` (variation and condition values: any JSON) with `$id: "/schemas/unknown"`;
 * a validator takes several schemas with one `$id` for a conflict, and "any value" needs no id.
 */
const withoutPlaceholderIds = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutPlaceholderIds)
  if (typeof node !== "object" || node === null) return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "$id" && typeof value === "string" && value.startsWith("/schemas/")))
      .map(([key, value]) => [key, withoutPlaceholderIds(value)])
  )
}

export const projectFileJsonSchema = (): Record<string, unknown> => {
  const generated = withoutPlaceholderIds(JSONSchema.make(ProjectFile)) as Record<string, unknown>
  return {
    $schema: generated.$schema,
    title: "Flagport project file",
    ...generated
  }
}
