/**
 * A key just made, shown this once: the API keeps only its hash, so this is the one chance to
 * copy it. It lives in the page's memory only (never in storage, never in a URL) and is gone when
 * the person dismisses it or leaves the page.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import type { CreatedApiKey } from "../lib/types.js"
import { Field } from "./Field.js"

/** The clipboard API needs a secure context (HTTPS or localhost); elsewhere the selected text is copied the old way. */
export const copyText = async (input: HTMLInputElement | null, text: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    input?.select()
    return document.execCommand("copy")
  }
}

export const NewSecret = ({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) => {
  const [status, setStatus] = useState("")
  const input = useRef<HTMLInputElement>(null)
  // The form that made the key may be far below: bring the key into view, focused and selected.
  useEffect(() => input.current?.focus(), [])
  const copy = async () => {
    setStatus((await copyText(input.current, created.key)) ? "Copied to the clipboard." : "Copying failed: select the key and copy it yourself.")
  }
  return (
    <section class="card new-secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">New {created.type} key: {created.name}</h2>
      <p>
        <strong>Copy this key now: you will not see it again.</strong> Flagport keeps only a hash of it; if it is lost, make a new
        key and revoke this one.
      </p>
      <div class="secret">
        <Field label="The new key" class="grow">
          {(ctl) => (
            <input {...ctl} ref={input} readOnly value={created.key} class="mono" spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
          )}
        </Field>
        <button type="button" onClick={copy}>Copy key</button>
      </div>
      <p role="status" class="status">{status}</p>
      <div class="actions">
        <button type="button" class="secondary" onClick={onDismiss}>I have stored it, hide the key</button>
      </div>
    </section>
  )
}
