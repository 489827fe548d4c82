import type { Contract } from "./Backend.js"
import { apiKeyContract } from "./ApiKeyRepository.contract.js"
import { auditLogContract } from "./AuditLog.contract.js"
import { changeRequestContract } from "./ChangeRequests.contract.js"
import { changeRequestSegmentContract } from "./ChangeRequestSegments.contract.js"
import { changeFeedContract } from "./ChangeFeed.contract.js"
import { concurrencyContract } from "./Concurrency.contract.js"
import { concurrentProjectWritesContract } from "./ConcurrentProjectWrites.contract.js"
import { environmentCopyContract } from "./EnvironmentCopy.contract.js"
import { outboxContract } from "./EventOutbox.contract.js"
import { experimentContract } from "./Experiments.contract.js"
import { exposureContract } from "./Exposures.contract.js"
import { unitMetricsContract } from "./UnitMetrics.contract.js"
import { analysisTotalsContract } from "./AnalysisTotals.contract.js"
import { sessionContract, setupTokenContract, signInFailureContract, userContract } from "./People.contract.js"
import { signInSecurityContract } from "./SignInSecurity.contract.js"
import { signInLockoutContract } from "./SignInLockout.contract.js"
import { ssoLinkAllowanceContract } from "./SsoLinkAllowance.contract.js"
import { ssoLinkingContract } from "./SsoLinking.contract.js"
import { flagContract } from "./FlagRepository.contract.js"
import { insightsContract } from "./InsightsRepository.contract.js"
import { lastAdminContract } from "./LastAdmin.contract.js"
import { makerKeysContract } from "./MakerKeys.contract.js"
import { jsonContract } from "./JsonRoundTrip.contract.js"
import { prerequisitesContract } from "./Prerequisites.contract.js"
import { projectContract } from "./ProjectRepository.contract.js"
import { releasePlanRepositoryContract } from "./ReleasePlanRepository.contract.js"
import { guardrailsContract } from "./Guardrails.contract.js"
import { releasePlanContract } from "./ReleasePlans.contract.js"
import { releasePlanChangesContract } from "./ReleasePlanChanges.contract.js"
import { scheduleContract } from "./ScheduleRepository.contract.js"
import { segmentContract } from "./SegmentRepository.contract.js"
import { segmentKeysContract } from "./SegmentKeys.contract.js"
import { snapshotContract } from "./Snapshots.contract.js"
import { configVersionContract } from "./ConfigVersions.contract.js"
import { targetingContract } from "./Targeting.contract.js"
import { transactorContract } from "./Transactor.contract.js"
import { webhookContract } from "./WebhookRepository.contract.js"
import { webhookClaimContract } from "./WebhookClaims.contract.js"
import { webhookRetentionContract } from "./WebhookRetention.contract.js"

/** Every storage contract suite; each backend runner passes them to `runContracts`. */
export const allContracts: ReadonlyArray<readonly [string, Contract]> = [
  ["ProjectRepository + EnvironmentRepository", projectContract],
  ["FlagRepository", flagContract],
  ["Targeting", targetingContract],
  ["Optimistic concurrency", concurrencyContract],
  ["Concurrent writes to one project", concurrentProjectWritesContract],
  ["Environment copy", environmentCopyContract],
  ["Prerequisites", prerequisitesContract],
  ["SegmentRepository", segmentContract],
  ["SegmentKeyRepository + key lists", segmentKeysContract],
  ["ApiKeyRepository", apiKeyContract],
  ["EventOutbox", outboxContract],
  ["Transactor", transactorContract],
  ["Snapshots", snapshotContract],
  ["JSON round-trip", jsonContract],
  ["WebhookRepository", webhookContract],
  ["WebhookRepository claims", webhookClaimContract],
  ["WebhookRepository retention", webhookRetentionContract],
  ["ChangeFeed", changeFeedContract],
  ["ScheduleRepository + scheduler", scheduleContract],
  ["InsightsRepository", insightsContract],
  ["AuditLog", auditLogContract],
  ["Configuration versions", configVersionContract],
  ["UserRepository + memberships", userContract],
  ["SetupTokenRepository", setupTokenContract],
  ["SessionRepository + sessions", sessionContract],
  ["SignInFailureRepository + sign-in limit", signInFailureContract],
  ["Sign-in security: token lookup, failure retention", signInSecurityContract],
  ["Sign-in lockout: per email and address, unlock", signInLockoutContract],
  ["Single sign-on: identities, linking by email, email comparison", ssoLinkingContract],
  ["Single sign-on: a global admin's allowance to link", ssoLinkAllowanceContract],
  ["ChangeRequestRepository + change requests", changeRequestContract],
  ["Change requests and the segments they name", changeRequestSegmentContract],
  ["ExperimentRepository + experiments", experimentContract],
  ["Keys and their makers", makerKeysContract],
  ["ExperimentUnitRepository + exposures", exposureContract],
  ["ExperimentUnitRepository + metric events", unitMetricsContract],
  ["ReleasePlanRepository", releasePlanRepositoryContract],
  ["ExperimentUnitRepository + running totals", analysisTotalsContract],
  ["Guardrails", guardrailsContract],
  ["Release plans + stepper", releasePlanContract],
  ["Release plans in protected environments", releasePlanChangesContract],
  // Last: it disables every earlier test's global admins.
  ["The last global admin", lastAdminContract]
]
