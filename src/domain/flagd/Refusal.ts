/**
 * Why a flagd flag is not imported: the place in the flag (a path into the flagd file, such as
 * `flags.banner.targeting.if[0]["=="]`) and a sentence naming the construct and what Flagport
 * would do differently. The translation stops at the first construct it cannot carry over
 * faithfully; everything it returns instead of a refusal evaluates as flagd evaluates it
 * (docs/guide/coming-from-flagd.md says where the two still differ and why).
 */

export interface Refusal {
  readonly path: string
  readonly reason: string
}

/** Where a construct sits: property names and array indexes from the flagd document's root. */
export type Path = ReadonlyArray<string | number>

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** `flags.banner.targeting.if[0]["=="][1]`: dots for plain names, brackets for the rest. */
export const formatPath = (path: Path): string =>
  path
    .map((segment, i) =>
      typeof segment === "number"
        ? `[${segment}]`
        : IDENTIFIER.test(segment)
          ? `${i === 0 ? "" : "."}${segment}`
          : `[${JSON.stringify(segment)}]`
    )
    .join("")

/**
 * Thrown inside the translation (which is deep recursion over JSONLogic) and caught once per flag
 * by `FlagdDocument.translateFlag`, which turns it into that flag's refusal. Never escapes it.
 */
export class Refused {
  constructor(readonly refusal: Refusal) {}
}

export const refuse = (path: Path, reason: string): never => {
  throw new Refused({ path: formatPath(path), reason })
}

/** A short, bounded rendering of a flagd value for messages. */
export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
