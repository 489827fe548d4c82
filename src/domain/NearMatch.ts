/**
 * The near match a not-found answer offers ("did you mean 'new-checkout'?"): the known name closest
 * to the one asked for, by edit distance (insertions, deletions, substitutions, and a swap of two
 * neighbours, the commonest typo), when it is close enough to be a typo rather than another name:
 * at most a third of the asked name's length, and at most 3. Case differences count as one edit.
 */

/** Optimal string alignment distance (Damerau-Levenshtein without moving a letter twice). */
const distance = (a: string, b: string): number => {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/** The known name nearest to `asked`, if one is near enough to be what was meant. */
export const nearMatch = (asked: string, known: Iterable<string>): string | undefined => {
  const bound = Math.min(3, Math.max(1, Math.floor(asked.length / 3)))
  let best: { readonly name: string; readonly distance: number } | undefined
  for (const name of known) {
    if (name === asked || Math.abs(name.length - asked.length) > bound) continue
    const d = distance(asked, name)
    if (d <= bound && (best === undefined || d < best.distance)) best = { name, distance: d }
  }
  return best?.name
}
