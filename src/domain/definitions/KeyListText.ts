/**
 * The text of an uploaded key list, read as it streams in (a million keys never need to be one
 * string): `text/plain` is one key a line (a trailing `\r` dropped, blank lines skipped);
 * `text/csv` is RFC 4180 with a header row, the keys taken from the column named `key` (any
 * case), else from the first column. A hand-written reader rather than a CSV library: it must be
 * fed chunk by chunk inside the pure core, and RFC 4180's quoting is the whole of the format.
 */
import type { Problem } from "../Errors.js"
import { atMost, limit } from "../Limits.js"
import { keyProblem } from "./SegmentKeys.js"

export type KeyListFormat = "lines" | "csv"

/** Why an upload's text is refused, with where (`line 12`). */
export class KeyListTextError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.path}: ${problem.message}`)
  }
}

/** The most columns a row of an uploaded CSV may have (one of them holds the keys). */
const MAX_CSV_COLUMNS = 1_000

const refuse = (line: number, message: string): never => {
  throw new KeyListTextError({ path: `line ${line}`, message })
}

/** Reads one upload: `push` each decoded chunk, then `end`; each returns the keys completed so far. Throws `KeyListTextError`. */
export class KeyListReader {
  /** Keys read so far, duplicates included (the limit counts what was sent). */
  count = 0
  private line = 1
  private field = ""
  private fields: Array<string> = []
  private quoted = false
  /** The line a quoted field opened on, for the error of one never closed. */
  private quoteLine = 1
  private afterQuote = false
  private column: number | undefined
  private out: Array<string> = []
  /** The limits, read once per upload rather than twice a key (a million keys: a million lookups less). */
  private readonly maxLength = limit("segmentKeyLength")
  private readonly maxCount = limit("segmentKeysPerList")

  constructor(readonly format: KeyListFormat) {}

  push(text: string): ReadonlyArray<string> {
    if (this.format === "lines") this.pushLines(text)
    else for (let i = 0; i < text.length; i++) this.csvChar(text[i]!)
    return this.take()
  }

  end(): ReadonlyArray<string> {
    if (this.format === "lines") {
      if (this.field.length > 0) this.key(this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field)
    } else {
      if (this.quoted) refuse(this.quoteLine, "a quoted field is not closed")
      if (this.field.length > 0 || this.fields.length > 0) this.endRecord()
      if (this.column === undefined) refuse(1, "a CSV upload starts with a header row (for example `key`)")
    }
    return this.take()
  }

  private take(): ReadonlyArray<string> {
    const keys = this.out
    this.out = []
    return keys
  }

  private key(key: string) {
    if (key.length === 0) return
    // keyProblem's checks, the usual key passing them on its length and one scan for a line break;
    // keyProblem itself (and its message) only for a key that fails one.
    if (key.length > this.maxLength || key.includes("\r") || key.includes("\n")) {
      const problem = keyProblem(key)
      if (problem !== undefined) refuse(this.line, `the key ${problem}`)
    }
    if (++this.count > this.maxCount) refuse(this.line, `a list ${atMost("segmentKeysPerList")}`)
    this.out.push(key)
  }

  private pushLines(text: string) {
    let start = 0
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      // A line within this chunk is sliced once (a trailing `\r` left out), not sliced and sliced again.
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl
      if (this.field.length === 0) this.key(text.slice(start, end))
      else {
        const line = this.field + text.slice(start, nl)
        this.field = ""
        this.key(line.endsWith("\r") ? line.slice(0, -1) : line)
      }
      this.line++
      start = nl + 1
    }
    this.field += text.slice(start)
    if (this.field.length > this.maxLength + 1) refuse(this.line, `the key must be at most ${this.maxLength} characters`)
  }

  private csvChar(c: string) {
    if (this.quoted) {
      if (c === "\"") {
        this.quoted = false
        this.afterQuote = true
      } else {
        if (c === "\n") this.line++
        this.grow(c)
      }
      return
    }
    if (this.afterQuote) {
      this.afterQuote = false
      if (c === "\"") {
        // A doubled quote inside a quoted field is one quote.
        this.field += "\""
        this.quoted = true
        return
      }
      if (c !== "," && c !== "\n" && c !== "\r") refuse(this.line, "a quoted field must end at a comma or the end of the line")
    }
    if (c === ",") {
      // A row of endless commas would grow without bound: a key list's CSV needs few columns.
      if (this.fields.length >= MAX_CSV_COLUMNS) refuse(this.line, `a row may have at most ${MAX_CSV_COLUMNS.toLocaleString("en-US")} columns`)
      this.fields.push(this.field)
      this.field = ""
    } else if (c === "\n") {
      this.endRecord()
      this.line++
    } else if (c === "\r") {
      // Dropped: a CRLF line ends at its `\n`.
    } else if (c === "\"") {
      if (this.field.length > 0) refuse(this.line, "a quote may only open a field")
      this.quoted = true
      this.quoteLine = this.line
    } else {
      this.grow(c)
    }
  }

  /** Adds to the field being read, quoted or not: an unclosed quote must not read a whole upload into one string. */
  private grow(c: string) {
    this.field += c
    if (this.field.length > limit("segmentKeyLength") * 4) refuse(this.line, "a field is far longer than any key")
  }

  private endRecord() {
    this.fields.push(this.field)
    const record = this.fields
    this.fields = []
    this.field = ""
    if (record.length === 1 && record[0] === "") return
    if (this.column === undefined) {
      const named = record.findIndex((name) => name.trim().toLowerCase() === "key")
      this.column = named === -1 ? 0 : named
      return
    }
    if (record.length <= this.column) refuse(this.line, `the row has no column ${this.column + 1} (the header's key column)`)
    const key = record[this.column]!
    if (key.length === 0) refuse(this.line, "the key must not be empty")
    this.key(key)
  }
}
