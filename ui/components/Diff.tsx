/** The preview of a change: removed lines, added lines, and the unchanged lines around them. */
import { diffLines, pretty } from "../lib/diff.js"

export const Diff = ({ before, after, label }: { before: unknown; after: unknown; label: string }) => {
  const lines = diffLines(pretty(before), pretty(after))
  const changed = lines.some((l) => l.kind !== "same")
  return (
    <section class="diff" aria-label={label}>
      <h3>{label}</h3>
      {changed ? (
        <pre tabIndex={0}>
          {lines.map((l, i) => (
            <span key={i} class={`diff-${l.kind}`}>
              {l.kind === "added" ? "+ " : l.kind === "removed" ? "- " : "  "}
              {l.text}
              {"\n"}
            </span>
          ))}
        </pre>
      ) : (
        <p>No change yet.</p>
      )}
    </section>
  )
}
