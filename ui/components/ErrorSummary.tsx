/**
 * The top of a form after a refusal: the API's message and every problem with the field it is
 * about, in people's words (lib/words.ts: "Rule 1, rollout shares", not `rules[0].rollout.variations`),
 * announced to screen readers. Each problem also appears next to its own field. A 412 (the flag
 * changed since it was loaded) is explained instead, with `onReload` offered to load the current version.
 */
import { isConflict, type Problems } from "../lib/problems.js"
import { fieldWords, messageWords } from "../lib/words.js"
import { ConflictNotice } from "./ConflictNotice.js"

export const ErrorSummary = ({ problems, onReload }: { problems: Problems; onReload?: () => void }) =>
  problems.message === null ? null : isConflict(problems) ? (
    <ConflictNotice problems={problems} onReload={onReload} />
  ) : (
    <div class="error-summary" role="alert">
      <p>{messageWords(problems.message)}</p>
      {problems.details.length === 0 ? null : (
        <ul>
          {problems.details.map((d, i) => (
            <li key={i}>
              {d.path === "" ? null : <strong>{fieldWords(d.path)}: </strong>}
              {messageWords(d.message)}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
