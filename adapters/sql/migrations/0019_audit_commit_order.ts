import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The audit log's commit order: `commit_seq`, the position a live reader (the management events
 * stream) and the audit pages go by. A reader that has seen a position has seen every position
 * below it, because positions are handed out in the order the writes commit:
 * - PostgreSQL: `seq` is taken when a row is inserted, and two writes may commit in the other
 *   order. So a deferred trigger numbers each row at its transaction's commit, from the same
 *   sequence, under one transaction-level advisory lock that is released only once the
 *   transaction is visible: a later number's transaction started numbering after every earlier
 *   number's transaction was visible. The lock is held from the numbering to the commit, nothing
 *   else, so it cannot be part of a deadlock.
 * - SQLite: one writer at a time, holding the write lock from its first write to its commit, so
 *   `seq` is already commit-ordered; a trigger copies it.
 * Either trigger leaves a row that arrives with a number alone (a transfer copies them), and the
 * transfer's setting of `seq`'s counter past the source's keeps later numbers above the copied ones.
 * Existing rows keep their `seq` as position, so a client resuming with an old event id goes on.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_audit_log ADD COLUMN commit_seq BIGINT`
  yield* sql`UPDATE flagport_audit_log SET commit_seq = seq`
  yield* sql`DROP INDEX flagport_audit_log_project`
  yield* sql`DROP INDEX flagport_audit_log_resource`
  yield* sql`CREATE UNIQUE INDEX flagport_audit_log_project ON flagport_audit_log (project_id, commit_seq)`
  yield* sql`CREATE INDEX flagport_audit_log_resource ON flagport_audit_log (project_id, resource_type, resource_key, commit_seq)`
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.zipRight(
        sql.unsafe(`CREATE FUNCTION flagport_audit_commit_seq() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            PERFORM pg_advisory_xact_lock(7246031378);
            UPDATE flagport_audit_log SET commit_seq = nextval(pg_get_serial_sequence('flagport_audit_log', 'seq')) WHERE seq = NEW.seq;
            RETURN NULL;
          END $$`),
        sql.unsafe(`CREATE CONSTRAINT TRIGGER flagport_audit_log_commit_seq AFTER INSERT ON flagport_audit_log
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.commit_seq IS NULL) EXECUTE FUNCTION flagport_audit_commit_seq()`)
      ),
    orElse: () =>
      sql.unsafe(`CREATE TRIGGER flagport_audit_log_commit_seq AFTER INSERT ON flagport_audit_log
        FOR EACH ROW WHEN NEW.commit_seq IS NULL BEGIN UPDATE flagport_audit_log SET commit_seq = NEW.seq WHERE seq = NEW.seq; END`)
  })
})
