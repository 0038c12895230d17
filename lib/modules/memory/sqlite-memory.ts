import type Database from 'better-sqlite3';
import { ChatMessage } from '../../model/model-types';
import { Memory } from '../../model/memory';
import { openSqliteDatabase } from '../knowledge/open-database';
import type { SqliteSource } from '../knowledge/sqlite-source';
import { createMemoryMessagesTable, MEMORY_MESSAGES_TABLE as MESSAGES } from './memory-schema';
import { MemoryModuleError } from './memory-module-error';

const ROLES = new Set(['user', 'assistant', 'tool']);

/**
 * Conversation {@link Memory} in SQLite: every message the runner records survives a restart and
 * can be read by another process opening the same file. Opens a file path (WAL journaling) or uses
 * an open `better-sqlite3` database, which may be shared with the durable store; the table
 * `wuwe_memory_messages` is created on open.
 */
export class SqliteMemory implements Memory {
  private readonly database: Database.Database;
  private readonly owned: boolean;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;

  /** Opens a file (`':memory:'` for a private in-memory database) or uses an open database. */
  constructor(source: SqliteSource) {
    const opened = openSqliteDatabase(source, undefined, 'SqliteMemory');
    this.database = opened.database;
    this.owned = opened.owned;
    createMemoryMessagesTable(this.database);
    this.insert = this.database.prepare(
      `INSERT INTO ${MESSAGES} (run_id, seq, role, message, created_at)
       SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ? FROM ${MESSAGES} WHERE run_id = ?`,
    );
    this.select = this.database.prepare(`SELECT message FROM ${MESSAGES} WHERE run_id = ? ORDER BY seq`);
  }

  /**
   * Appends a message to a run's conversation. Throws `MemoryModuleError` (`invalid_message`) for a message that is not
   * a serializable chat message.
   */
  append(runId: string, message: ChatMessage): void {
    if (typeof runId !== 'string' || runId.length === 0)
      throw new MemoryModuleError('invalid_message', 'A run id must be a non-empty string.');
    if (typeof message !== 'object' || message === null || !ROLES.has(message.role))
      throw new MemoryModuleError('invalid_message', `A chat message needs a role of user, assistant or tool.`);
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch (error) {
      throw new MemoryModuleError('invalid_message', 'A chat message must be JSON-serializable.', { cause: error });
    }
    this.insert.run(runId, message.role, json, Date.now(), runId);
  }

  /** The run's conversation in the order it was appended; empty for an unknown run. */
  messages(runId: string): readonly ChatMessage[] {
    return (this.select.all(runId) as { message: string }[]).map((row) => JSON.parse(row.message) as ChatMessage);
  }

  /** The ids of runs with a recorded conversation. */
  runIds(): string[] {
    return (
      this.database.prepare(`SELECT DISTINCT run_id FROM ${MESSAGES} ORDER BY run_id`).all() as { run_id: string }[]
    ).map((row) => row.run_id);
  }

  /** Deletes a run's conversation; returns how many messages were removed. */
  clear(runId: string): number {
    return this.database.prepare(`DELETE FROM ${MESSAGES} WHERE run_id = ?`).run(runId).changes;
  }

  /** Closes the database when this memory opened it; an injected database stays open. */
  close(): void {
    if (this.owned && this.database.open) this.database.close();
  }
}
