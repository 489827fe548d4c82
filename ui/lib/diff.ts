/**
 * A line diff (longest common subsequence) of two texts, for the preview of a change before it
 * is saved. Targeting documents are a few hundred lines at most, so the quadratic table is cheap.
 * Where a line was replaced, the removed line comes first, as diffs are read: what was, then what is.
 */
export interface DiffLine {
  readonly kind: "same" | "added" | "removed"
  readonly text: string
}

export const diffLines = (before: string, after: string): ReadonlyArray<DiffLine> => {
  const a = before.split("\n")
  const b = after.split("\n")
  const n = a.length
  const m = b.length
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..]
  const lcs: Array<Uint32Array> = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
  }
  const out: Array<DiffLine> = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! })
      i++
      j++
    } else if (j < m && (i === n || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) {
      out.push({ kind: "added", text: b[j]! })
      j++
    } else {
      out.push({ kind: "removed", text: a[i]! })
      i++
    }
  }
  return out
}

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2)

/** A line of the preview: a line of the diff, or a run of unchanged lines left out. */
export type ShownLine = DiffLine | { readonly kind: "folded"; readonly count: number }

/**
 * The diff as shown: each change with `context` unchanged lines on either side; longer runs of
 * unchanged lines in between are folded into one line saying how many, so a change to one rule of
 * a large flag is not lost in a screen of lines that stay the same.
 */
export const folded = (lines: ReadonlyArray<DiffLine>, context = 3): ReadonlyArray<ShownLine> => {
  const near = lines.map(() => false)
  lines.forEach((l, i) => {
    if (l.kind === "same") return
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) near[j] = true
  })
  const out: Array<ShownLine> = []
  let run: Array<DiffLine> = []
  const flush = () => {
    if (run.length > 1) out.push({ kind: "folded", count: run.length })
    else out.push(...run)
    run = []
  }
  lines.forEach((l, i) => {
    if (near[i]) {
      flush()
      out.push(l)
    } else run.push(l)
  })
  flush()
  return out
}
