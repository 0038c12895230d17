export { MemoryModuleError } from './memory-module-error';
export type { MemoryModuleErrorCode } from './memory-module-error';
export { SqliteMemory } from './sqlite-memory';
export type { Note, NoteMatch, NoteStore, RecallNotesInput, RememberNoteInput, RememberStatus } from './note-store';
export { InMemoryNoteStore, SqliteNoteStore } from './sqlite-note-store';
export {
  MEMORY_TOOL_NAMES,
  NOTE_KEY_PATTERN,
  forgetDescriptor,
  recallDescriptor,
  rememberDescriptor,
} from './memory-tools';
export type { MemoryToolLimits } from './memory-tools';
export { resolveMemoryToolOptions } from './resolve-memory-tool-options';
export type { MemoryToolOptionsInput, ResolvedMemoryToolOptions } from './resolve-memory-tool-options';
export { MemoryToolProvider } from './memory-tool-provider';
export type { MemoryToolProviderOptions } from './memory-tool-provider';
