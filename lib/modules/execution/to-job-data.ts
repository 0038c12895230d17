import { JsonObject } from '../../outcome/json-value';
import { JobSnapshot } from './job-types';

/** The JSON a job tool answers for a snapshot: times as ISO 8601 strings, optional fields only when set. */
export function toJobData(snapshot: JobSnapshot, extra: JsonObject = {}): JsonObject {
  const data: JsonObject = {
    jobId: snapshot.jobId,
    kind: snapshot.kind,
    status: snapshot.status,
    heartbeats: snapshot.heartbeats,
    startedAt: new Date(snapshot.startedAtMs).toISOString(),
  };
  if (snapshot.progress !== undefined) data.progress = { ...snapshot.progress };
  if (snapshot.finishedAtMs !== undefined) data.finishedAt = new Date(snapshot.finishedAtMs).toISOString();
  if (snapshot.result !== undefined) data.result = snapshot.result;
  if (snapshot.error !== undefined) data.error = snapshot.error;
  return { ...data, ...extra };
}
