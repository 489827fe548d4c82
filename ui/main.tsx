/**
 * The dashboard's entry. A key kept from earlier in this tab is checked again (it may have been
 * revoked); a refused key is forgotten and sign-in shows.
 */
import { render } from "preact"
import { App } from "./App.js"
import { requestWith } from "./lib/api.js"
import { keepKey, serverKey, signOut } from "./lib/session.js"
import { loadSettings } from "./lib/settings.js"
import type { List, Project } from "./lib/types.js"

const start = async (): Promise<void> => {
  await loadSettings()
  const kept = serverKey.value
  if (kept !== null) {
    try {
      keepKey(kept, (await requestWith<List<Project>>(kept, "GET", "/v1/projects")).data)
    } catch {
      signOut()
    }
  }
  render(<App />, document.getElementById("app")!)
}

void start()
