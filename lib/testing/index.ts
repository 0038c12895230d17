/**
 * `wuwe/testing`: a manual clock for tests of deadlines, retries and leases (the scripted model is
 * `ScriptedModelClient` of the root).
 * @packageDocumentation
 */
export { ManualClock } from './manual-clock';
