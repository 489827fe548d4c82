/**
 * The published JSON Schema of the project file, generated from the one definition
 * (ProjectFile.ts). Committed as docs/project-file.schema.json (a test holds it equal) and served
 * at `PROJECT_FILE_SCHEMA_PATH`, so an editor checks a file as it is typed:
 * `# yaml-language-server: $schema=https://flags.example.com/schemas/project-file.json`.
 */
import * as JSONSchema from "effect/JSONSchema"
import { ProjectFile } from "./ProjectFile.js"

export const PROJECT_FILE_SCHEMA_PATH = "/schemas/project-file.json"

export const projectFileJsonSchema = (): Record<string, unknown> => {
  const generated = JSONSchema.make(ProjectFile) as unknown as Record<string, unknown>
  return {
    $schema: generated.$schema,
    title: "Flagport project file",
    ...generated
  }
}
