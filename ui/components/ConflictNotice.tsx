/**
 * What a 412 means to a person: someone else changed the flag (or, for a targeting save, that
 * environment's targeting) after this page loaded it, so the save was refused rather than
 * overwrite their change. Said in people's words (the API's own message, which speaks of versions
 * and If-Match, stays one click away for developers). Offers to load the current version; the
 * change being made stays on screen until then, so it can be made again.
 */
import type { Problems } from "../lib/problems.js"
import { messageWords } from "../lib/words.js"

export const ConflictNotice = ({ problems, onReload }: { problems: Problems; onReload?: (() => void) | undefined }) => {
  const message = problems.message ?? ""
  const words = messageWords(message)
  return (
    <div class="error-summary conflict" role="alert">
      <p>Not saved: this flag was changed by someone else after you loaded it.</p>
      {words === message ? null : <p class="detail">{words}</p>}
      <p class="detail">Load the current version to see their change, then make yours again on top of it.</p>
      {onReload === undefined ? null : (
        <div class="actions">
          <button type="button" onClick={onReload}>Reload the current version</button>
        </div>
      )}
      {message === "" ? null : (
        <details class="detail">
          <summary>Details for developers</summary>
          <p>{message}</p>
        </details>
      )}
    </div>
  )
}
