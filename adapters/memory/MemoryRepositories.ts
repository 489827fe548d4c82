import { Effect, Layer, Option } from "effect"
import type { ApiKey } from "../../src/domain/auth/ApiKey.js"
import { versionAfterWrite } from "../../src/domain/definitions/ConfigVersion.js"
import type { Flag } from "../../src/domain/definitions/Flag.js"
import type { Environment, Project } from "../../src/domain/definitions/Project.js"
import type { Segment } from "../../src/domain/definitions/Segment.js"
import type { EnvironmentConfig } from "../../src/domain/definitions/Targeting.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { EventOutbox, type OutboxEntry } from "../../src/ports/EventOutbox.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import { DuplicateKey, NotFound, StorageError, VersionConflict } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb, type TxRef } from "./MemoryDb.js"

/**
 * The reference implementation of the storage ports. Tables are immutable Maps (insertion order
 * is creation order; `set` on an existing key keeps its place) held in MemoryDb cells.
 */

const scoped = (projectId: string, key: string) => `${projectId}/${key}`

/** Adds `row()` under a new `id`; DuplicateKey (`entity` `key`) when the id is taken. */
const insertNew = <A>(table: TxRef<ReadonlyMap<string, A>>, id: string, row: () => A, entity: string, key: string) =>
  table.modify((map) => (map.has(id) ? [false, map] : [true, new Map(map).set(id, row())])).pipe(
    Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity, key }))))
  )

/** Deletes the row under `id`; NotFound (`entity` `key`) when there is none. */
const removeExisting = <A>(table: TxRef<ReadonlyMap<string, A>>, id: string, entity: string, key: string) =>
  table.modify((map) => {
    if (!map.has(id)) return [false, map]
    const next = new Map(map)
    next.delete(id)
    return [true, next]
  }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity, key })))))

export const projectRepository = Layer.effect(
  ProjectRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, { project: Project; revision: number }>>("projects", new Map())
    return ProjectRepository.of({
      insert: (project) => insertNew(table, project.id, () => ({ project: jsonCopy(project), revision: 1 }), "project", project.id),
      list: () => Effect.map(table.get, (map) => Array.from(map.values(), (row) => row.project)),
      get: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.project)),
      bumpRevision: (id) =>
        table.modify((map) => {
          const row = map.get(id)
          if (row === undefined) return [null, map] as const
          return [row.revision + 1, new Map(map).set(id, { ...row, revision: row.revision + 1 })] as const
        }).pipe(Effect.flatMap((r) => (r === null ? Effect.fail(new NotFound({ entity: "project", key: id })) : Effect.succeed(r)))),
      revision: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.revision))
    })
  })
)

export const environmentRepository = Layer.effect(
  EnvironmentRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, Environment>>("environments", new Map())
    return EnvironmentRepository.of({
      insert: (env) => insertNew(table, scoped(env.projectId, env.key), () => jsonCopy(env), "environment", env.key),
      list: (projectId) => Effect.map(table.get, (map) => Array.from(map.values()).filter((e) => e.projectId === projectId)),
      get: (projectId, key) => Effect.map(table.get, (map) => Option.fromNullable(map.get(scoped(projectId, key))))
    })
  })
)

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

export const flagRepository = Layer.effect(
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
    const ordered = (projectId: string, flag: Flag) =>
      Effect.map(environments.list(projectId), (envs): Flag => {
        const rank = new Map(envs.map((e, i) => [e.key, i]))
        const configs = [...flag.configs].sort((a, b) => rank.get(a.environmentKey)! - rank.get(b.environmentKey)!).map(normalizedConfig)
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
          Effect.flatMap((rows) => Effect.forEach(rows, (row) => ordered(projectId, row.flag)))
        ),
      get: (projectId, key) =>
        table.get.pipe(
          Effect.map((map) => Option.fromNullable(map.get(scoped(projectId, key)))),
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.succeed(Option.none<Flag>()),
              onSome: (row) => Effect.map(ordered(projectId, row.flag), Option.some)
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

export const segmentRepository = Layer.effect(
  SegmentRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, Segment>>("segments", new Map())
    return SegmentRepository.of({
      insert: (segment) => insertNew(table, scoped(segment.projectId, segment.key), () => jsonCopy(segment), "segment", segment.key),
      list: (projectId) => Effect.map(table.get, (map) => Array.from(map.values()).filter((s) => s.projectId === projectId)),
      get: (projectId, key) => Effect.map(table.get, (map) => Option.fromNullable(map.get(scoped(projectId, key)))),
      update: (segment) =>
        table.modify((map) => {
          const id = scoped(segment.projectId, segment.key)
          const row = map.get(id)
          if (row === undefined) return [false, map]
          const stored: Segment = { ...jsonCopy(segment), id: row.id, createdAt: row.createdAt }
          return [true, new Map(map).set(id, stored)]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "segment", key: segment.key }))))),
      remove: (projectId, key) => removeExisting(table, scoped(projectId, key), "segment", key)
    })
  })
)

export const apiKeyRepository = Layer.effect(
  ApiKeyRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, { apiKey: ApiKey; hash: string }>>("api_keys", new Map())
    const setField = (id: string, f: (key: ApiKey) => ApiKey) =>
      table.modify((map) => {
        const row = map.get(id)
        if (row === undefined) return [false, map]
        return [true, new Map(map).set(id, { ...row, apiKey: f(row.apiKey) })]
      })
    return ApiKeyRepository.of({
      insert: (apiKey, hash) =>
        table.modify((map) => {
          if (map.has(apiKey.id) || Array.from(map.values()).some((row) => row.hash === hash)) return [false, map]
          return [true, new Map(map).set(apiKey.id, { apiKey: jsonCopy(apiKey), hash })]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity: "api key", key: apiKey.id }))))),
      list: () => Effect.map(table.get, (map) => Array.from(map.values(), (row) => row.apiKey)),
      get: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.apiKey)),
      findByHash: (hash) =>
        Effect.map(table.get, (map) =>
          Option.map(Option.fromNullable(Array.from(map.values()).find((row) => row.hash === hash)), (row) => row.apiKey)
        ),
      revoke: (id, at) =>
        setField(id, (key) => (key.revokedAt === null ? { ...key, revokedAt: at } : key)).pipe(
          Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "api key", key: id }))))
        ),
      touch: (id, at) => Effect.asVoid(setField(id, (key) => ({ ...key, lastUsedAt: at })))
    })
  })
)

export const eventOutbox = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyArray<OutboxEntry>>("outbox", [])
    return EventOutbox.of({
      append: (event) =>
        table.modify((rows) => {
          if (rows.some((row) => row.event.id === event.id)) return [false, rows]
          const seq = rows.length === 0 ? 1 : rows[rows.length - 1]!.seq + 1
          return [true, [...rows, { seq, event: jsonCopy(event), dispatchedAt: null }]]
        }).pipe(
          Effect.flatMap((ok) =>
            ok ? Effect.void : Effect.fail(new StorageError({ message: `Duplicate outbox event id '${event.id}'` }))
          )
        ),
      pending: (limit) => Effect.map(table.get, (rows) => rows.filter((row) => row.dispatchedAt === null).slice(0, limit)),
      list: (projectId) => Effect.map(table.get, (rows) => rows.filter((row) => row.event.projectId === projectId)),
      markDispatched: (eventId, at) =>
        table.update((rows) =>
          rows.map((row) => (row.event.id === eventId && row.dispatchedAt === null ? { ...row, dispatchedAt: at } : row))
        ),
      pruneDispatched: (before, limit) =>
        table.modify((rows) => {
          const doomed = new Set<number>()
          for (const row of rows) {
            if (doomed.size >= limit) break
            if (row.dispatchedAt !== null && row.dispatchedAt < before) doomed.add(row.seq)
          }
          return [doomed.size, doomed.size === 0 ? rows : rows.filter((row) => !doomed.has(row.seq))] as const
        })
    })
  })
)
