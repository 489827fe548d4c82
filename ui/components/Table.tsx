/**
 * A data table that scrolls sideways inside its own box when it is wider than the screen, so the
 * page itself never does (a phone shows the first columns and scrolls to the rest). The box is a
 * named, focusable region (named by the table's caption), so keyboard users can scroll it too.
 */
import type { ComponentChildren } from "preact"
import { useId } from "preact/hooks"

export const Table = (props: { caption: ComponentChildren; class?: string; children: ComponentChildren }) => {
  const id = useId()
  return (
    <div class="table-scroll" role="region" aria-labelledby={id} tabIndex={0}>
      <table class={props.class}>
        <caption id={id} class="visually-hidden">{props.caption}</caption>
        {props.children}
      </table>
    </div>
  )
}
