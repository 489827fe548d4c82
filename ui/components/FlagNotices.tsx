/** The notices above a flag's sections: a change request opened from its targeting, a scheduled change that settled. */
import { when } from "../lib/format.js"
import { href } from "../lib/router.js"
import type { ChangeRequest, Schedule } from "../lib/types.js"

/** A change request opened from the targeting editor: where to follow it. */
export const ProposedNotice = ({ proposed }: { proposed: ChangeRequest | null }) =>
  proposed === null ? null : (
    <div class="card notice" role="status">
      <p>
        Change request “{proposed.title}” opened for {proposed.environment}: it needs {proposed.requiredApprovals} approval{proposed.requiredApprovals === 1 ? "" : "s"} before it is applied.{" "}
        <a href={href({ page: "change-requests" })}>See the change requests</a>
      </p>
    </div>
  )

/**
 * A scheduled change settled while the page was open. An applied one changed the flag, but the
 * page is not reloaded by itself, so an edit in progress is not lost: the person chooses when.
 */
export const SettledNotice = ({ settled, onReload }: { settled: Schedule | null; onReload: () => void }) =>
  settled === null ? null : (
    <div class="card notice" role="status">
      {settled.status === "applied" ? (
        <>
          <p>The change to {settled.environment} scheduled for {when(settled.at)} was applied: the flag has a new version.</p>
          <button type="button" onClick={onReload}>Reload the current version</button>
        </>
      ) : (
        <p>The change to {settled.environment} scheduled for {when(settled.at)} failed and changed nothing: {settled.reason}</p>
      )}
    </div>
  )
