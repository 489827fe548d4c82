/**
 * The 404s of the contract, worded in one place: the services fail with them, and the evaluation
 * adapters answer with the same words.
 */
import { ResourceNotFound } from "./Errors.js"
import { nearMatch } from "./NearMatch.js"

/**
 * The near match of an unknown name among the known ones, and for environments (few, and often
 * guessed: `prod`) the known ones too, in `details`: the message stays the contract's, word for word.
 */
const hints = (path: string, asked: string, known: ReadonlyArray<string> | undefined, listKnown: boolean) => {
  if (known === undefined) return {}
  const near = nearMatch(asked, known)
  const details = [
    ...(near === undefined ? [] : [{ path, message: `did you mean '${near}'?` }]),
    ...(listKnown ? [{ path, message: known.length === 0 ? "the project has no environment" : `the project's environments: ${known.join(", ")}` }] : [])
  ]
  return details.length === 0 ? {} : { details }
}

export const projectNotFound = (projectId: string) => new ResourceNotFound({ message: `Project '${projectId}' not found` })

/**
 * An environment the project does not have (for writes to it and for snapshots of it alike);
 * given the project's environments (`known`), the details name them and the near match.
 */
export const environmentNotFound = (projectId: string, environmentKey: string, known?: ReadonlyArray<string>) =>
  new ResourceNotFound({ message: `Environment '${environmentKey}' not found in project '${projectId}'`, ...hints("environment", environmentKey, known, true) })

/** Given the project's flag keys (`known`), the details offer the near match. */
export const flagNotFound = (projectId: string, flagKey: string, known?: ReadonlyArray<string>) =>
  new ResourceNotFound({ message: `Flag '${flagKey}' not found in project '${projectId}'`, ...hints("flagKey", flagKey, known, false) })

/** A flag deleted and made again under its key since a scheduled change was made for it. */
export const flagReplaced = (flagKey: string) =>
  new ResourceNotFound({ message: `Flag '${flagKey}' was deleted after the schedule was made (a flag with its key was made again)` })

export const segmentNotFound = (projectId: string, segmentKey: string) =>
  new ResourceNotFound({ message: `Segment '${segmentKey}' not found in project '${projectId}'` })

export const webhookNotFound = (projectId: string, webhookId: string) =>
  new ResourceNotFound({ message: `Webhook '${webhookId}' not found in project '${projectId}'` })

export const deliveryNotFound = (webhookId: string, deliveryId: string) =>
  new ResourceNotFound({ message: `Delivery '${deliveryId}' not found for webhook '${webhookId}'` })

export const keyNotFound = (keyId: string) => new ResourceNotFound({ message: `API key '${keyId}' not found` })

export const scheduleNotFound = (flagKey: string, scheduleId: string) =>
  new ResourceNotFound({ message: `Schedule '${scheduleId}' not found for flag '${flagKey}'` })

export const userNotFound = (userId: string) => new ResourceNotFound({ message: `User '${userId}' not found` })

export const memberNotFound = (projectId: string, userId: string) =>
  new ResourceNotFound({ message: `User '${userId}' is not a member of project '${projectId}'` })

export const experimentNotFound = (projectId: string, key: string) =>
  new ResourceNotFound({ message: `Experiment '${key}' not found in project '${projectId}'` })

export const releasePlanNotFound = (flagKey: string, id: string) =>
  new ResourceNotFound({ message: `Release plan '${id}' not found for flag '${flagKey}'` })

export const changeRequestNotFound = (projectId: string, id: string) =>
  new ResourceNotFound({ message: `Change request '${id}' not found in project '${projectId}'` })
