/**
 * Tabs as the WAI-ARIA pattern has them: a `tablist` of `tab`s, each controlling one `tabpanel`;
 * one tab in the Tab order (the selected one), the arrow keys, Home and End move between tabs and
 * select as they go. Which tab is selected is the caller's (the flag page keeps it in the URL), so
 * a reload and back/forward restore it. Every panel stays mounted, hidden when not selected: an
 * edit in progress in one section survives a look at another, and a section that watches
 * something (the schedules) keeps watching.
 */
import type { ComponentChildren } from "preact"

export interface Tab<K extends string> {
  readonly key: K
  readonly label: string
  readonly panel: ComponentChildren
}

const tabId = (prefix: string, key: string) => `${prefix}-tab-${key}`
const panelId = (prefix: string, key: string) => `${prefix}-panel-${key}`

/** Where a key press moves the selection among `count` tabs from `index`, or null when it is not a tab key. */
export const tabMove = (key: string, index: number, count: number): number | null => {
  switch (key) {
    case "ArrowRight":
      return (index + 1) % count
    case "ArrowLeft":
      return (index - 1 + count) % count
    case "Home":
      return 0
    case "End":
      return count - 1
    default:
      return null
  }
}

export const Tabs = <K extends string>(props: {
  /** Names the tab list for assistive technology ("Sections of checkout"). */
  readonly label: string
  /** Makes the elements' ids unique on the page. */
  readonly idPrefix: string
  readonly tabs: ReadonlyArray<Tab<K>>
  readonly selected: K
  readonly onSelect: (key: K) => void
}) => {
  const { idPrefix, tabs, selected } = props
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const next = tabMove(e.key, index, tabs.length)
    if (next === null) return
    e.preventDefault()
    const tab = tabs[next]!
    props.onSelect(tab.key)
    document.getElementById(tabId(idPrefix, tab.key))?.focus()
  }
  return (
    <>
      <div class="tabs" role="tablist" aria-label={props.label}>
        {tabs.map((t, i) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={tabId(idPrefix, t.key)}
            aria-selected={t.key === selected}
            aria-controls={panelId(idPrefix, t.key)}
            tabIndex={t.key === selected ? 0 : -1}
            onClick={() => props.onSelect(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div key={t.key} class="tab-panel" role="tabpanel" id={panelId(idPrefix, t.key)} aria-labelledby={tabId(idPrefix, t.key)} tabIndex={0} hidden={t.key !== selected}>
          {t.panel}
        </div>
      ))}
    </>
  )
}
