/**
 * Loading what a page shows: `useLoad` runs a request when its inputs change and keeps the
 * result, the refusal, and a way to reload or replace the data after a change.
 */
import { useCallback, useEffect, useState } from "preact/hooks"
import { fromError, type Problems } from "./problems.js"

export type Loaded<A> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly problems: Problems }
  | { readonly state: "ready"; readonly data: A }

export const useLoad = <A,>(load: () => Promise<A>, inputs: ReadonlyArray<unknown>) => {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    let current = true
    load().then(
      (data) => current && setLoaded({ state: "ready", data }),
      (error: unknown) => current && setLoaded({ state: "failed", problems: fromError(error) })
    )
    return () => {
      current = false
    }
  }, [...inputs, generation])
  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  const replace = useCallback((data: A) => setLoaded({ state: "ready", data }), [])
  /** Changes the loaded data from its latest value (for callbacks that outlive a render). */
  const update = useCallback((change: (data: A) => A) => setLoaded((l) => (l.state === "ready" ? { state: "ready", data: change(l.data) } : l)), [])
  return { loaded, reload, replace, update }
}
