import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { versionAfterWrite } from "../../src/domain/definitions/ConfigVersion.js"
import type { Flag } from "../../src/domain/definitions/Flag.js"
import type { EnvironmentConfig } from "../../src/domain/definitions/Targeting.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { NotFound, StorageError, VersionConflict } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"
import { insertNew, scoped } from "./MemoryTables.js"

/**
 * The reference FlagRepository: flags by project and key, each with the version every
 * environment's config serves. It reads the EnvironmentRepository to check and order configs
 * as the SQL foreign keys and joins do.
 */

/** A stored config as SQL reads it back: prerequisites always present (none when written without), fields in one order. */
const normalizedConfig = (c: EnvironmentConfig): EnvironmentConfig => ({
  environmentKey: c.environmentKey,
  enabled: c.enabled,
  defaultVariationKey: c.defaultVariationKey,
  offVariationKey: c.offVariationKey,
  prerequisites: c.prerequisites ?? [],
  rules: c.rules
})

/** A stored flag with the version each environment serves (ConfigVersion.ts), by environment key. */
interface FlagRow {
  readonly projectId: string
  readonly flag: Flag
  readonly configVersions: Readonly<Record<string, number>>
}

/** Every config of `flag` at `version`. */
const allAt = (flag: Flag, version: number): Record<string, number> =>
  Object.fromEntries(flag.configs.map((c) => [c.environmentKey, version]))

export const layer = Layer.effect(
  FlagRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, FlagRow>>("flags", new Map())
    const environments = yield* EnvironmentRepository
    /** Configs must name environments of the project, as the SQL foreign keys demand. */
    const checkConfigs = (projectId: string, flag: Flag) =>
      Effect.flatMap(environments.list(projectId), (envs) => {
        const known = new Set(envs.map((e) => e.key))
        const missing = flag.configs.find((c) => !known.has(c.environmentKey))
        if (missing === undefined) return Effect.void
        return Effect.fail(new StorageError({ message: `Unknown environment '${missing.environmentKey}' in flag '${flag.key}'` }))
      })
    /** A stored flag as it is read: configurations in environment order, each with the version it serves. */
    const ordered = (projectId: string, { configVersions, flag }: FlagRow) =>
      Effect.map(environments.list(projectId), (envs): Flag => {
        const rank = new Map(envs.map((e, i) => [e.key, i]))
        const configs = [...flag.configs]
          .sort((a, b) => rank.get(a.environmentKey)! - rank.get(b.environmentKey)!)
          .map((config) => ({ ...normalizedConfig(config), version: configVersions[config.environmentKey]! }))
        return { ...flag, configs }
      })
    /** A compare-and-set miss: the flag is gone, or at another version. */
    const missed = (key: string, current: number | undefined) =>
      current === undefined ? new NotFound({ entity: "flag", key }) : new VersionConflict({ entity: "flag", key, current })
    /** Replaces the flag if at `expectedVersion`, its configs at the versions `versionsOf` gives. */
    const write = (
      projectId: string,
      flag: Flag,
      expectedVersion: number,
      versionsOf: (row: FlagRow) => Record<string, number>
    ) =>
      checkConfigs(projectId, flag).pipe(
        Effect.zipRight(
          table.modify((map) => {
            const id = scoped(projectId, flag.key)
            const row = map.get(id)
            if (row === undefined || row.flag.version !== expectedVersion) return [missed(flag.key, row?.flag.version), map] as const
            const stored: Flag = { ...jsonCopy(flag), id: row.flag.id, type: row.flag.type, createdAt: row.flag.createdAt }
            return [null, new Map(map).set(id, { projectId, flag: stored, configVersions: versionsOf(row) })] as const
          })
        ),
        Effect.flatMap((failure) => (failure === null ? Effect.void : Effect.fail(failure)))
      )
    return FlagRepository.of({
      insert: (projectId, flag) =>
        Effect.zipRight(
          checkConfigs(projectId, flag),
          insertNew(
            table,
            scoped(projectId, flag.key),
            () => ({ projectId, flag: jsonCopy(flag), configVersions: allAt(flag, flag.version) }),
            "flag",
            flag.key
          )
        ),
      list: (projectId) =>
        table.get.pipe(
          Effect.map((map) => Array.from(map.values()).filter((row) => row.projectId === projectId)),
          Effect.flatMap((rows) => Effect.forEach(rows, (row) => ordered(projectId, row)))
        ),
      listRequiring: (projectId) =>
        table.get.pipe(
          Effect.map((map) =>
            Array.from(map.values()).filter((row) => row.projectId === projectId && row.flag.configs.some((c) => (c.prerequisites ?? []).length > 0))
          ),
          Effect.flatMap((rows) => Effect.forEach(rows, (row) => ordered(projectId, row)))
        ),
      get: (projectId, key) =>
        table.get.pipe(
          Effect.map((map) => Option.fromNullable(map.get(scoped(projectId, key)))),
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.succeed(Option.none<Flag>()),
              onSome: (row) => Effect.map(ordered(projectId, row), Option.some)
            })
          )
        ),
      // A configuration keeps its version when what it serves is unchanged.
      update: (projectId, flag, expectedVersion) =>
        write(projectId, flag, expectedVersion, (row) => {
          const variations = { before: row.flag.variations, after: flag.variations }
          return Object.fromEntries(
            flag.configs.map((config) => {
              const before = row.flag.configs.find((c) => c.environmentKey === config.environmentKey)
              const stored = before === undefined ? undefined : { config: before, version: row.configVersions[config.environmentKey]! }
              return [config.environmentKey, versionAfterWrite(flag.version, variations, stored, config)]
            })
          )
        }),
      // Memory has no cheaper partial write: the whole aggregate is replaced; only `environmentKey`'s version moves.
      updateConfig: (projectId, flag, environmentKey, expectedVersion) =>
        write(projectId, flag, expectedVersion, (row) => ({ ...row.configVersions, [environmentKey]: flag.version })),
      addEnvironmentConfigs: (projectId, environmentKey, configs, updatedAt) =>
        Effect.flatMap(environments.get(projectId, environmentKey), (env) =>
          Option.isNone(env)
            ? Effect.fail(new StorageError({ message: `Unknown environment '${environmentKey}'` }))
            : table.modify((map) => {
                const byKey = new Map(configs.map((c) => [c.flagKey, c.config]))
                const next = new Map(map)
                let covered = 0
                for (const [id, row] of map) {
                  if (row.projectId !== projectId) continue
                  const config = byKey.get(row.flag.key)
                  if (config === undefined) return [false, map]
                  covered++
                  next.set(id, {
                    projectId,
                    flag: {
                      ...row.flag,
                      configs: [...row.flag.configs, jsonCopy({ ...config, environmentKey })],
                      version: row.flag.version + 1,
                      updatedAt
                    },
                    configVersions: { ...row.configVersions, [environmentKey]: row.flag.version + 1 }
                  })
                }
                return covered === configs.length ? [true, next] : [false, map]
              }).pipe(
                Effect.flatMap((ok) =>
                  ok ? Effect.void : Effect.fail(new StorageError({ message: "Configs do not match the project's flags" }))
                )
              )
        ),
      remove: (projectId, key, expectedVersion) =>
        table.modify((map) => {
          const id = scoped(projectId, key)
          const row = map.get(id)
          if (row === undefined || (expectedVersion !== undefined && row.flag.version !== expectedVersion)) {
            return [missed(key, row?.flag.version), map] as const
          }
          const next = new Map(map)
          next.delete(id)
          return [null, next] as const
        }).pipe(Effect.flatMap((failure) => (failure === null ? Effect.void : Effect.fail(failure)))),
      snapshotFlags: (projectId, environmentKey) =>
        Effect.map(table.get, (map) =>
          Array.from(map.values()).flatMap((row) => {
            if (row.projectId !== projectId) return []
            const config = row.flag.configs.find((c) => c.environmentKey === environmentKey)
            if (config === undefined) return []
            return [
              {
                key: row.flag.key,
                type: row.flag.type,
                enabled: config.enabled,
                variations: row.flag.variations,
                defaultVariationKey: config.defaultVariationKey,
                offVariationKey: config.offVariationKey,
                prerequisites: config.prerequisites ?? [],
                rules: config.rules,
                version: row.configVersions[environmentKey]!
              }
            ]
          })
        )
    })
  })
)
