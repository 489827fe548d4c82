/**
 * The text of an export, the same whoever asks (`flagport export`, `GET .../export`): the
 * project file in YAML or JSON, or the OpenFeature manifest as JSON.
 */
import { type FileFormat, printFile } from "./FileText.js"
import type { OpenFeatureManifest } from "./OpenFeatureManifest.js"
import type { ProjectFile } from "./ProjectFile.js"

export type ExportFormat = FileFormat | "openfeature-manifest"

export const EXPORT_FORMATS: ReadonlyArray<ExportFormat> = ["yaml", "json", "openfeature-manifest"]

export const exportText = (what: { readonly file: ProjectFile; readonly format: FileFormat } | { readonly manifest: OpenFeatureManifest }): string =>
  "manifest" in what ? `${JSON.stringify(what.manifest, null, 2)}\n` : printFile(what.file, what.format)

/** The answer's content type for each format. */
export const CONTENT_TYPES: Record<ExportFormat, string> = {
  yaml: "application/yaml; charset=utf-8",
  json: "application/json; charset=utf-8",
  "openfeature-manifest": "application/json; charset=utf-8"
}
