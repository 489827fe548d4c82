/**
 * A line diff (longest common subsequence) for the plan's "changed" items, which are small (one
 * flag's targeting, one segment): quadratic is fine there, and no dependency is needed for it
 * (docs/internals/decisions.md, "Flags as code: the plan's diff").
 */
export type DiffLine = { readonly op: " " | "-" | "+"; readonly text: string }

export const diffLines = (before: ReadonlyArray<string>, after: ReadonlyArray<string>): Array<DiffLine> => {
  const n = before.length
  const m = after.length
  // lcs[i][j]: the length of the longest common subsequence of before[i..] and after[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
  }
  const out: Array<DiffLine> = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push({ op: " ", text: before[i]! })
      i++
      j++
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ op: "-", text: before[i]! })
      i++
    } else {
      out.push({ op: "+", text: after[j]! })
      j++
    }
  }
  return out
}

/** The changed lines with `context` unchanged lines around each run of changes; `...` where lines are left out. */
export const withContext = (lines: ReadonlyArray<DiffLine>, context = 2): Array<DiffLine | "..."> => {
  const keep = lines.map(() => false)
  lines.forEach((line, at) => {
    if (line.op === " ") return
    for (let k = Math.max(0, at - context); k <= Math.min(lines.length - 1, at + context); k++) keep[k] = true
  })
  const out: Array<DiffLine | "..."> = []
  lines.forEach((line, at) => {
    if (keep[at]) out.push(line)
    else if (out[out.length - 1] !== "...") out.push("...")
  })
  return out
}
