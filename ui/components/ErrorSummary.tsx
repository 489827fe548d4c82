/**
 * The top of a form after a refusal: the API's message and every problem with its path, announced
 * to screen readers. Each problem also appears next to its own field.
 */
import type { Problems } from "../lib/problems.js"

export const ErrorSummary = ({ problems }: { problems: Problems }) =>
  problems.message === null ? null : (
    <div class="error-summary" role="alert">
      <p>{problems.message}</p>
      {problems.details.length === 0 ? null : (
        <ul>
          {problems.details.map((d, i) => (
            <li key={i}>
              <code>{d.path === "" ? "(request)" : d.path}</code>: {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
