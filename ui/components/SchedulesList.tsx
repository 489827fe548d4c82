/**
 * A flag's scheduled changes, in every status (SchedulesTable.tsx). While a schedule is pending
 * the list is read again just after it is due, so the page learns what became of it; a schedule
 * that settles is reported with `onSettled` (the flag itself may have changed), a cancelled one
 * with `onCancelled` (the page's status line says so).
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { projectPath, request, seg } from "../lib/api.js"
import { useLoad } from "../lib/load.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { nextCheckIn } from "../lib/schedules.js"
import type { List, Schedule } from "../lib/types.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { SchedulesTable } from "./SchedulesTable.js"
import { Waiting } from "./Status.js"

export const SchedulesList = (props: {
  projectId: string
  flagKey: string
  refresh: number
  onSettled: (s: Schedule) => void
  onCancelled: (s: Schedule) => void
}) => {
  const path = projectPath(props.projectId, `/flags/${seg(props.flagKey)}/schedules`)
  const { loaded, reload } = useLoad(() => request<List<Schedule>>("GET", path).then((l) => l.data), [path, props.refresh])
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  // The pending schedules seen last time, to tell which ones settled since.
  const pending = useRef<ReadonlySet<string> | null>(null)
  const schedules = loaded.state === "ready" ? loaded.data : null

  useEffect(() => {
    if (schedules === null) return
    const before = pending.current
    pending.current = new Set(schedules.filter((s) => s.status === "pending").map((s) => s.id))
    if (before !== null) for (const s of schedules) if (before.has(s.id) && (s.status === "applied" || s.status === "failed")) props.onSettled(s)
    const wait = nextCheckIn(schedules, Date.now())
    if (wait === null) return
    const timer = setTimeout(reload, wait)
    return () => clearTimeout(timer)
  }, [schedules])

  const cancel = async (s: Schedule) => {
    try {
      await request("DELETE", `${path}/${seg(s.id)}`)
      setProblems(NO_PROBLEMS)
      props.onCancelled(s)
    } catch (error) {
      setProblems(fromError(error))
    }
    reload()
  }

  return (
    <section class="card" aria-labelledby="schedules-title">
      <h2 id="schedules-title">Scheduled changes</h2>
      <ErrorSummary problems={problems} />
      {schedules === null ? (
        <Waiting loaded={loaded} />
      ) : schedules.length === 0 ? (
        <p>No change is scheduled for this flag. To make one, edit the targeting (the Targeting section) and choose a time under “Or schedule this change”.</p>
      ) : (
        <SchedulesTable caption={<>Scheduled changes of {props.flagKey}</>} schedules={schedules} statuses onCancel={cancel} />
      )}
    </section>
  )
}
