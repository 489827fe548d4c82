/**
 * A confirmation in a modal `<dialog>` (focus moves into it, Escape cancels), used before a
 * change in a production-like environment. `ask(text)` resolves to the person's answer.
 */
import { signal } from "@preact/signals"
import { useEffect, useRef } from "preact/hooks"

interface Pending {
  readonly text: string
  readonly resolve: (ok: boolean) => void
}

const pending = signal<Pending | null>(null)

export const ask = (text: string): Promise<boolean> =>
  new Promise((resolve) => {
    pending.value = { text, resolve }
  })

const answer = (ok: boolean): void => {
  const p = pending.value
  pending.value = null
  p?.resolve(ok)
}

export const ConfirmDialog = () => {
  const ref = useRef<HTMLDialogElement>(null)
  const current = pending.value
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (current !== null && !dialog.open) dialog.showModal()
    if (current === null && dialog.open) dialog.close()
  }, [current])
  return (
    <dialog ref={ref} aria-labelledby="confirm-text" onCancel={() => answer(false)}>
      <p id="confirm-text">{current?.text}</p>
      <div class="actions">
        <button type="button" onClick={() => answer(true)}>
          Confirm
        </button>
        <button type="button" class="secondary" onClick={() => answer(false)} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
