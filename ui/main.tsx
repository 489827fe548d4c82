/**
 * The dashboard's entry. A key kept from earlier in this tab is checked again (it may have been
 * revoked); a refused key is forgotten. Without a key, `GET /v1/me` tells whether the browser
 * holds a person's session (the cookie is HttpOnly: only the server can say); without one, sign-in
 * shows. A setup link's page needs neither; single sign-on's way back (`/ui/signin?error=…`) shows
 * sign-in with its reason.
 */
import { render } from "preact"
import { App } from "./App.js"
import { currentPerson, keepSignedIn, ssoRefusal } from "./lib/account.js"
import { requestWith } from "./lib/api.js"
import { entry } from "./lib/router.js"
import { keepKey, serverKey, signInNotice, signOut } from "./lib/session.js"
import { loadSettings } from "./lib/settings.js"
import type { List, Project } from "./lib/types.js"

const resume = async (): Promise<void> => {
  const kept = serverKey.value
  if (kept !== null) {
    try {
      return keepKey(kept, (await requestWith<List<Project>>(kept, "GET", "/v1/projects")).data)
    } catch {
      signOut()
    }
  }
  const who = await currentPerson()
  if (who === null) return
  try {
    await keepSignedIn(who)
  } catch {
    signOut()
  }
}

const start = async (): Promise<void> => {
  await loadSettings()
  if (entry.value === null) await resume()
  if (entry.value === "signin") signInNotice.value = ssoRefusal(location.search)
  render(<App />, document.getElementById("app")!)
}

void start()
