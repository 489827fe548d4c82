import * as Effect from "effect/Effect"

/**
 * Gives the event loop a turn: resumes after the I/O that is waiting (a request's bytes, a timer)
 * has been served. `Effect.yieldNow()` is not that: it lets other fibers run, but Effect's
 * scheduler resumes them on the microtask queue (up to 2,048 rounds before it takes a timer), so a
 * loop of short slices separated by `yieldNow` still holds the event loop from start to end, and
 * every request that arrives meanwhile waits for the whole of it. Background work of many slices
 * (loading a million-key list, staging an upload) yields with this between slices.
 *
 * `setImmediate` where the runtime has it (Node, Bun), else a zero timeout. It does not go through
 * Effect's `Clock`, so a test's `TestClock` does not hold it.
 */
export const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate
  const clear = (globalThis as { clearImmediate?: (handle: unknown) => void }).clearImmediate
  if (immediate !== undefined && clear !== undefined) {
    const handle = immediate(() => resume(Effect.void))
    return Effect.sync(() => clear(handle))
  }
  const handle = setTimeout(() => resume(Effect.void), 0)
  return Effect.sync(() => clearTimeout(handle))
})
