/** A segment's two key lists, side by side on a wide screen, one under the other on a phone. */
import { loadKeyLists } from "../lib/keyLists.js"
import { useLoad } from "../lib/load.js"
import { KeyListEditor } from "./KeyListEditor.js"
import { Waiting } from "./Status.js"

export const KeyLists = (props: { projectId: string; segmentKey: string; onClose: () => void }) => {
  const { loaded, reload } = useLoad(() => loadKeyLists(props.projectId, props.segmentKey), [props.projectId, props.segmentKey])
  const title = `Key lists of ${props.segmentKey}`
  return (
    <section class="card" aria-label={title}>
      <div class="page-head">
        <h2>{title}</h2>
        <button type="button" class="secondary" onClick={props.onClose}>Close key lists</button>
      </div>
      {loaded.state !== "ready" ? <Waiting loaded={loaded} /> : (
        <div class="key-lists">
          <KeyListEditor projectId={props.projectId} segmentKey={props.segmentKey} info={loaded.data.included} onChanged={reload} />
          <KeyListEditor projectId={props.projectId} segmentKey={props.segmentKey} info={loaded.data.excluded} onChanged={reload} />
        </div>
      )}
    </section>
  )
}
