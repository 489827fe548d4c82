/**
 * Effect Schema's issue messages in words. Decoding reports what it expected in the schema's own
 * notation (`Expected { readonly key: minLength(1); ... }, actual "u"`, or for a `[]` body the
 * whole request schema), which tells a client nothing it can act on and can run to kilobytes.
 * Every 400 of both lanes passes through here (Problems.ts), so each says what is wrong in words
 * at its path: `must be an object, not a string`, `is required`, `is not a field of this object
 * (its fields: key, attributes)`. Messages already in words (refinements with their own message,
 * the domain's validation) pass through unchanged.
 */

/** The top-level parts of a union in Effect's notation, respecting brackets and string literals. */
const topLevelParts = (text: string): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === "\\") i++
      else if (c === '"') quoted = false
    } else if (c === '"') quoted = true
    else if (c === "{" || c === "<" || c === "(" || c === "[") depth++
    else if (c === "}" || c === ">" || c === ")" || c === "]") depth--
    else if (depth === 0 && text.startsWith(" | ", i)) {
      parts.push(text.slice(start, i))
      start = i + 3
      i += 2
    }
  }
  parts.push(text.slice(start))
  return parts.map((p) => p.trim())
}

const KEYWORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  object: "an object",
  null: "null",
  unknown: "any JSON value",
  any: "any JSON value",
  NonEmptyString: "a non-empty string",
  Int: "an integer"
}

const isLiteral = (part: string): boolean => /^("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false)$/.test(part)

/** One part of what a schema expected, in words; undefined for `undefined` (an optional field's other half). */
const wordsOfPart = (part: string): string | undefined => {
  if (part === "undefined") return undefined
  const keyword = KEYWORDS[part]
  if (keyword !== undefined) return keyword
  if (isLiteral(part)) return part
  if (part.startsWith("{") || part.startsWith("ReadonlyRecord<") || part.startsWith("Record<")) return "an object"
  if (part.startsWith("ReadonlyArray<") || part.startsWith("Array<") || part.startsWith("readonly [") || part.startsWith("[")) return "an array"
  const min = /^minLength\((\d+)\)$/.exec(part)
  if (min !== null) return min[1] === "1" ? "a non-empty string" : `a string of at least ${min[1]} characters`
  const max = /^maxLength\((\d+)\)$/.exec(part)
  if (max !== null) return `a string of at most ${max[1]} characters`
  // Effect's words for its length filters, made plain.
  const atLeast = /^a string at least (\d+) character\(s\) long$/.exec(part)
  if (atLeast !== null) return atLeast[1] === "1" ? "a non-empty string" : `a string of at least ${atLeast[1]} characters`
  const atMost = /^a string at most (\d+) character\(s\) long$/.exec(part)
  if (atMost !== null) return `a string of at most ${atMost[1]} characters`
  // Already words (a schema's own description: "a string matching the pattern ...", "text without ...").
  if (/^[a-z]/.test(part) && !/[{}<>;]/.test(part)) return part
  if (/^[A-Z][a-z]/.test(part) && !/[{}<>;]/.test(part) && part.includes(" ")) return "a string"
  return "a value of another shape (see /openapi.json)"
}

/** What a schema expected, in words: `a string or null`, `one of "boolean", "string"`. */
export const expectedInWords = (expected: string): string => {
  const parts = topLevelParts(expected)
  const words = [...new Set(parts.map(wordsOfPart).filter((w): w is string => w !== undefined))]
  if (words.length === 0) return "absent"
  if (words.length > 1 && words.every(isLiteral)) return `one of ${words.join(", ")}`
  if (words.length <= 2) return words.join(" or ")
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`
}

/** What was sent, by kind (never the value itself: it may be long, or a secret). */
export const actualInWords = (actual: string): string => {
  if (actual.startsWith('"')) {
    if (actual.length <= 40) return `the string ${actual}`
    try {
      return `a string of ${(JSON.parse(actual) as string).length.toLocaleString("en-US")} characters`
    } catch {
      return "a string"
    }
  }
  if (actual.startsWith("[")) return "an array"
  if (actual.startsWith("{")) return "an object"
  if (actual === "null") return "null"
  if (actual === "true" || actual === "false") return `the boolean ${actual}`
  if (/^-?\d/.test(actual) || actual === "NaN" || actual.endsWith("Infinity")) return `the number ${actual}`
  return "a value of another kind"
}

const EXPECTED = /^Expected (.+), actual (.+)$/s
const UNEXPECTED = /^is unexpected, expected: (.+)$/s

/** One issue message in words (see the module comment); a message already in words is returned as it is. */
export const inWords = (message: string): string => {
  const type = EXPECTED.exec(message)
  if (type !== null) return `must be ${expectedInWords(type[1]!)}, not ${actualInWords(type[2]!)}`
  if (message === "is missing") return "is required"
  const unexpected = UNEXPECTED.exec(message)
  if (unexpected !== null) {
    const fields = topLevelParts(unexpected[1]!).map((p) => (isLiteral(p) && p.startsWith('"') ? (JSON.parse(p) as string) : p))
    return `is not a field here (the fields are ${fields.join(", ")})`
  }
  return message
}
