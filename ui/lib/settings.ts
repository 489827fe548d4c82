/**
 * Settings the server hands the dashboard (`settings.json` beside the page): which environments
 * are production-like, so switching a flag there asks for a confirmation first.
 */
import { signal } from "@preact/signals"

export interface DashboardSettings {
  readonly confirmEnvironments: ReadonlyArray<string>
}

export const settings = signal<DashboardSettings>({ confirmEnvironments: ["production"] })

export const loadSettings = async (): Promise<void> => {
  try {
    const response = await fetch("settings.json", { cache: "no-store" })
    if (response.ok) settings.value = (await response.json()) as DashboardSettings
  } catch {
    // keep the defaults: production is treated as production-like
  }
}

export const isProductionLike = (environmentKey: string): boolean =>
  settings.value.confirmEnvironments.includes(environmentKey)
