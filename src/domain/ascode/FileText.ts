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

/** YAML aliases a file may expand (the yaml library's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 100

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
  // Aliases expanding past the bound throw (a billion-laughs file): a problem of the file, not a crash.
  try {
    return Either.right(document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }))
  } catch {
    return Either.left([{ path: "", message: `too many aliases: a file may expand YAML aliases at most ${MAX_ALIAS_COUNT} times` }])
  }
}
