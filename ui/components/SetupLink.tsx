/**
 * A setup link just made (an invitation, or a password reset), shown with a way to copy it. There
 * is no mail: the person who made it passes it on. It works once, for 72 hours; it is shown only
 * here, in the page's memory, until dismissed.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { Field } from "./Field.js"
import { copyText } from "./NewSecret.js"

export interface MadeLink {
  /** Whom the link is for. */
  readonly email: string
  readonly url: string
  /** What made it: a new person's invitation or a reset of an existing person's password. */
  readonly kind: "invitation" | "reset"
}

export const SetupLink = ({ link, onDismiss }: { link: MadeLink; onDismiss: () => void }) => {
  const [status, setStatus] = useState("")
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  const copy = async () => {
    setStatus((await copyText(input.current, link.url)) ? "Copied to the clipboard." : "Copying failed: select the link and copy it yourself.")
  }
  return (
    <section class="card new-secret" aria-labelledby="setup-link-title">
      <h2 id="setup-link-title">{link.kind === "invitation" ? `Invitation for ${link.email}` : `New setup link for ${link.email}`}</h2>
      <p>
        <strong>Pass this link on to {link.email}</strong>: with it they choose a password and sign in. It works once, within 72 hours, and is not
        shown again; if it is lost, reset the password for a new one.
      </p>
      <div class="secret">
        <Field label="Setup link" class="grow">
          {(ctl) => <input {...ctl} ref={input} readOnly value={link.url} class="mono" spellcheck={false} onFocus={(e) => e.currentTarget.select()} />}
        </Field>
        <button type="button" onClick={copy}>Copy link</button>
      </div>
      <p role="status" class="status">{status}</p>
      <div class="actions">
        <button type="button" class="secondary" onClick={onDismiss}>Done, hide the link</button>
      </div>
    </section>
  )
}
