/**
 * A line diff (longest common subsequence) of two texts, for the preview of a change before it
 * is saved. Targeting documents are a few hundred lines at most, so the quadratic table is cheap.
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
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
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
