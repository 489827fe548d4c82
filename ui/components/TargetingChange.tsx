/**
 * A change to a flag's targeting as people read it: one line per thing changed (lib/targetingChanges.ts),
 * with the JSON diff one click away for those who want every field. The one view of a targeting
 * change: the targeting editor shows it before saving, and the change requests page shows each
 * proposed change with it, so an approver reads what the author read.
 */
import { targetingChanges } from "../lib/targetingChanges.js"
import type { ChangeTargeting } from "../lib/types.js"
import { Diff } from "./Diff.js"

/** Read by screen readers before each line, where its colour and mark show it. */
const KIND_WORDS = { added: "Added: ", removed: "Removed: ", changed: "Changed: " } as const
const KIND_MARKS = { added: "+", removed: "−", changed: "~" } as const

export const TargetingChange = ({ before, after, label }: { before: ChangeTargeting | null; after: ChangeTargeting; label: string }) => {
  const lines = targetingChanges(before, after)
  return (
    <section class="diff" aria-label={label}>
      <h3>{label}</h3>
      {lines.length === 0 ? (
        <p>No change yet.</p>
      ) : (
        <>
          <ul class="changes">
            {lines.map((l, i) => (
              <li key={i} class={`change-${l.kind}`}>
                <span class="change-mark" aria-hidden="true">{KIND_MARKS[l.kind]}</span>
                <span class="visually-hidden">{KIND_WORDS[l.kind]}</span>
                {l.text}
              </li>
            ))}
          </ul>
          <details class="json-diff">
            <summary>Show the change as JSON</summary>
            <Diff before={before} after={after} label={`${label}, as JSON`} />
          </details>
        </>
      )}
    </section>
  )
}
