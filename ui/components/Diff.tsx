/** The preview of a change: removed lines, added lines, and the unchanged lines around them (longer unchanged runs folded). */
import { diffLines, folded, pretty } from "../lib/diff.js"

const MARK = { added: "+ ", removed: "- ", same: "  " } as const

export const Diff = ({ before, after, label }: { before: unknown; after: unknown; label: string }) => {
  const lines = diffLines(pretty(before), pretty(after))
  const changed = lines.some((l) => l.kind !== "same")
  return (
    <section class="diff" aria-label={label}>
      <h3>{label}</h3>
      {changed ? (
        <pre tabIndex={0}>
          {folded(lines).map((l, i) =>
            l.kind === "folded" ? (
              <span key={i} class="diff-folded">{`  … ${l.count} unchanged lines\n`}</span>
            ) : (
              <span key={i} class={`diff-${l.kind}`}>
                {MARK[l.kind]}
                {l.text}
                {"\n"}
              </span>
            )
          )}
        </pre>
      ) : (
        <p>No change yet.</p>
      )}
    </section>
  )
}
