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

/** What a parse gives: the file's value, or its problems. Plain data, so it can cross a thread boundary. */
export type ParsedText =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problems: ReadonlyArray<Problem> }

/** The bounds of a parse: aliases a file may expand, and how deep its arrays and objects may nest. */
export interface ParseLimits {
  /** YAML aliases a file may expand (the yaml library's own guard against alias bombs). */
  readonly maxAliasCount: number
  /** Arrays and objects nested in one another, as the JSON bodies of the API allow (64). */
  readonly maxDepth: number
}

export const PARSE_LIMITS: ParseLimits = { maxAliasCount: 100, maxDepth: 64 }

/**
 * The parse of a project file's text (YAML is a superset of JSON, so one parser reads both) with
 * the `yaml` module given: its value, or its syntax errors with their line and column (path `""`).
 * Duplicate keys are refused (they would hide one item); aliases expanding past the bound (a
 * billion-laughs file) are a problem of the file; so is nesting deeper than `maxDepth`, at the path
 * where it passes the bound (block-style YAML nests without a bracket, so no scan of the text
 * finds it before the parse; a parser's stack overflow on deeper text is the same problem, at its
 * line and column), so that nothing after the parse recurses into an unbounded value.
 *
 * Self-contained: it refers to nothing but its parameters, because the HTTP adapter runs its
 * source text on a worker thread (adapters/http/api/ascode/YamlParser.ts), keeping a large file's
 * parse off the event loop.
 */
export const parseWith = (yaml: typeof YAML, limits: ParseLimits) => (text: string): ParsedText => {
  const tooDeep = `arrays and objects nest deeper than ${limits.maxDepth} levels`
  const overflowed = (error: unknown) => error instanceof RangeError || (error instanceof Error && /call stack/i.test(error.message))
  try {
    const lines = new yaml.LineCounter()
    const document = yaml.parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines })
    if (document.errors.length > 0) {
      return {
        ok: false,
        problems: document.errors.map((error) => {
          const at = lines.linePos(error.pos[0])
          const message = /call stack/i.test(error.message) ? tooDeep : error.message.split("\n")[0]
          return { path: "", message: `line ${at.line}, column ${at.col}: ${message}` }
        })
      }
    }
    let value: unknown
    try {
      value = document.toJS({ maxAliasCount: limits.maxAliasCount })
    } catch (error) {
      if (overflowed(error)) return { ok: false, problems: [{ path: "", message: tooDeep }] }
      return { ok: false, problems: [{ path: "", message: `too many aliases: a file may expand YAML aliases at most ${limits.maxAliasCount} times` }] }
    }
    // Walked without recursion: the first value nested past the bound, with its path (`flags[0].rules`).
    const stack: Array<{ readonly value: unknown; readonly depth: number; readonly path: string }> = [{ value, depth: 0, path: "" }]
    while (stack.length > 0) {
      const at = stack.pop()!
      if (typeof at.value !== "object" || at.value === null) continue
      if (at.depth >= limits.maxDepth) return { ok: false, problems: [{ path: at.path, message: tooDeep }] }
      const entries: Array<[string | number, unknown]> = Array.isArray(at.value) ? at.value.map((item, i) => [i, item]) : Object.entries(at.value)
      for (const [key, item] of entries) {
        const path = typeof key === "number" ? `${at.path}[${key}]` : at.path === "" ? key : `${at.path}.${key}`
        stack.push({ value: item, depth: at.depth + 1, path })
      }
    }
    return { ok: true, value }
  } catch (error) {
    if (overflowed(error)) return { ok: false, problems: [{ path: "", message: tooDeep }] }
    throw error
  }
}

const parseHere = parseWith(YAML, PARSE_LIMITS)

/** `parseWith` on this thread, as an Either (the CLI's files, the tests). */
export const parseFile = (text: string): Either.Either<unknown, ReadonlyArray<Problem>> => {
  const parsed = parseHere(text)
  return parsed.ok ? Either.right(parsed.value) : Either.left(parsed.problems)
}
