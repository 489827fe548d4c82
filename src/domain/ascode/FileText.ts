/**
 * The project file as text: YAML (through `yaml`, YAML 1.2) or JSON, read and written. Written
 * text is stable: the same project always gives the same bytes.
 */
import * as Either from "effect/Either"
import * as YAML from "yaml"
import type { Problem } from "../Errors.js"
import type { ProjectFile } from "./ProjectFile.js"

export type FileFormat = "yaml" | "json"

/** Strings a YAML 1.1 reader (PyYAML, older tools) would take for booleans: quoted, so every reader sees text. */
const YAML_11_BOOLEANS = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/

/** A value as YAML 1.2, strings that YAML 1.1 reads as booleans quoted (variation keys `on` and `off` are common). */
export const yamlText = (value: unknown): string => {
  const document = new YAML.Document(value)
  YAML.visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && YAML_11_BOOLEANS.test(node.value)) node.type = "QUOTE_DOUBLE"
    }
  })
  return document.toString({ lineWidth: 0 })
}

export const printFile = (file: ProjectFile, format: FileFormat): string =>
  format === "json" ? `${JSON.stringify(file, null, 2)}\n` : yamlText(file)

/**
 * The file's value, or its syntax errors with their line and column (path `""`). YAML is a
 * superset of JSON, so one parser reads both; duplicate keys are refused (they would hide one item).
 */
export const parseFile = (text: string): Either.Either<unknown, ReadonlyArray<Problem>> => {
  const lines = new YAML.LineCounter()
  const document = YAML.parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines })
  if (document.errors.length > 0) {
    return Either.left(document.errors.map((error) => {
      const at = lines.linePos(error.pos[0])
      return { path: "", message: `line ${at.line}, column ${at.col}: ${error.message.split("\n")[0]}` }
    }))
  }
  return Either.right(document.toJS({ maxAliasCount: 100 }))
}
