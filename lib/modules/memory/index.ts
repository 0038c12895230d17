/**
 * `wuwe/memory`: long-term notes as tools (remember, recall, forget) over a note store in memory or in
 * SQLite (`better-sqlite3`, an optional peer loaded on first use), and the SQLite conversation memory.
 * @packageDocumentation
 */
export { SqliteMemory } from './sqlite-memory';
export { InMemoryNoteStore, SqliteNoteStore } from './sqlite-note-store';
export { MemoryModuleError } from './memory-module-error';
export type { MemoryModuleErrorCode } from './memory-module-error';
export { MemoryToolProvider } from './memory-tool-provider';
export type { MemoryToolProviderOptions } from './memory-tool-provider';
export { MEMORY_TOOL_NAMES, NOTE_KEY_PATTERN } from './memory-tools';
export type { MemoryToolLimits } from './memory-tools';
export type { Note, NoteMatch, NoteStore, RecallNotesInput, RememberNoteInput, RememberStatus } from './note-store';
