/**
 * `wuwe/testing`: offline doubles for tests: a scripted model and a manual clock.
 * @packageDocumentation
 */
export { ScriptedModelClient } from '../model/scripted-model-client';
export { ScriptedModelError } from '../model/scripted-model-client';
export type { ScriptedModelClientOptions, ScriptedReply, ScriptedTurn } from '../model/scripted-model-client';
export { ManualClock } from './manual-clock';
