/**
 * The segments a change request's rules name, with their conditions as they were when the request
 * was opened or its changes last updated: an approver approves them along with the diff, and the
 * API refuses the apply once one of them has changed, so what is shown is what would be served.
 */
import { itemText } from "../lib/targetingChanges.js"
import type { ChangeSegment } from "../lib/types.js"
import { when } from "../lib/format.js"

/** `id`: the request's, so that each request's list has its own heading id. */
export const PinnedSegments = ({ id, segments }: { id: string; segments: ReadonlyArray<ChangeSegment> }) =>
  segments.length === 0 ? null : (
    <section class="pinned-segments" aria-labelledby={`segments-${id}`}>
      <h3 id={`segments-${id}`}>Segments these rules name</h3>
      <p class="muted">As they were when the request was made. If one of them changes, the request cannot be applied until its author updates it.</p>
      <ul>
        {segments.map((s) => (
          <li key={s.key} aria-label={`Segment ${s.key}`}>
            <code>{s.key}</code> ({s.name}, changed {when(s.updatedAt)}):{" "}
            {s.conditions.length === 0 ? "no conditions" : s.conditions.map(itemText).join(" and ")}
          </li>
        ))}
      </ul>
    </section>
  )
