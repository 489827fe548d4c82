/**
 * What a 412 means to a person: someone else changed the flag after this page loaded it, so the
 * save was refused rather than overwrite their change. Offers to load the current version; the
 * change being made stays on screen (with its diff) until then, so it can be made again.
 */
import type { Problems } from "../lib/problems.js"

export const ConflictNotice = ({ problems, onReload }: { problems: Problems; onReload?: (() => void) | undefined }) => (
  <div class="error-summary conflict" role="alert">
    <p>Not saved: this flag was changed by someone else after you loaded it.</p>
    <p class="detail">{problems.message}</p>
    <p class="detail">Load the current version to see their change, then make yours again on top of it.</p>
    {onReload === undefined ? null : (
      <div class="actions">
        <button type="button" onClick={onReload}>Reload the current version</button>
      </div>
    )}
  </div>
)
