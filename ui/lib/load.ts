/**
 * Loading what a page shows: `useLoad` runs a request when its inputs change and keeps the
 * result, the refusal, and a way to reload or replace the data after a change.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks"
import { fromError, type Problems } from "./problems.js"

export type Loaded<A> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly problems: Problems }
  | { readonly state: "ready"; readonly data: A }

export const useLoad = <A,>(load: () => Promise<A>, inputs: ReadonlyArray<unknown>) => {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const [generation, setGeneration] = useState(0)
  const afterReload = useRef<Array<() => void>>([])
  useEffect(() => {
    let current = true
    const settle = (next: Loaded<A>) => {
      if (!current) return
      setLoaded(next)
      for (const then of afterReload.current.splice(0)) then()
    }
    load().then(
      (data) => settle({ state: "ready", data }),
      (error: unknown) => settle({ state: "failed", problems: fromError(error) })
    )
    return () => {
      current = false
    }
  }, [...inputs, generation])
  /** Loads again; the data on screen stays until the new data replaces it. */
  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  /**
   * `reload`, and `then` once the new data (or the refusal) is on screen: e.g. to take down a
   * notice that the shown data is out of date only when it no longer is.
   */
  const reloadThen = useCallback((then: () => void) => {
    afterReload.current.push(then)
    reload()
  }, [reload])
  const replace = useCallback((data: A) => setLoaded({ state: "ready", data }), [])
  /** Changes the loaded data from its latest value (for callbacks that outlive a render). */
  const update = useCallback((change: (data: A) => A) => setLoaded((l) => (l.state === "ready" ? { state: "ready", data: change(l.data) } : l)), [])
  return { loaded, reload, reloadThen, replace, update }
}
