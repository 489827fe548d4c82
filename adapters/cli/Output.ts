import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
/**
 * stdout carries results only (key lines, JSON, tables), so scripts can parse it;
 * everything else (progress, errors) goes to stderr.
 */

export const printJson = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

export const printLines = (lines: ReadonlyArray<string>) => Console.log(lines.join("\n"))

/** A plain left-aligned table; an empty table prints only its header. */
export const printTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)))
  const format = (row: ReadonlyArray<string>) =>
    row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ").trimEnd()
  return printLines([format(header), ...rows.map(format)])
}

/**
 * Progress notes for people; never part of a command's parseable output. Written to stderr
 * directly: the CLI's Console.error is reserved for @effect/cli's own errors (see PlainConsole.ts).
 */
export const note = (message: string) => Effect.sync(() => void process.stderr.write(`${message}\n`))

