import { ToolOutputProjectionInput, ToolOutputProjectionRecord } from '../agent-run-record';
import { ChainDraft } from '../chain/chain-digest';
import { projectionDraft } from '../chain/chain-entities';
import { checkProjection, checkSameProjection, projectedContent } from '../rules/projection-rules';
import { checkTurn } from '../rules/value-rules';
import { projectionParameters } from '../sql/run-store-parameters';
import { callFromRow, projectionFromRow } from '../stored-rows';
import { SqliteRunSession } from './sqlite-run-session';

/**
 * Records a projection audit in the caller's write unless the same one is stored; throws as
 * {@link RunStore.recordProjection}. `texts` are the messages written with it, the first numbered `firstIndex`.
 */
export function insertSqliteProjection(
  session: SqliteRunSession,
  runId: string,
  projection: ToolOutputProjectionInput,
  chain: ChainDraft[],
  texts: readonly string[] = [],
  firstIndex = 0,
): ToolOutputProjectionRecord {
  const turn = checkTurn(projection.turn);
  const statements = session.statements;
  const call = statements.select('selectCall', runId, projection.callId, turn)[0];
  const reportJson = checkProjection(runId, projection, call && callFromRow(call));
  const stored = statements.select('selectProjection', runId, projection.callId, turn)[0];
  if (stored) {
    checkSameProjection(runId, stored, projection, reportJson);
    return projectionFromRow(stored, runId);
  }
  const content = projectedContent(texts, firstIndex, projection.callId);
  statements.run(
    'insertProjection',
    ...projectionParameters(runId, projection, reportJson, session.now(), turn, content),
  );
  const audit = projectionFromRow(statements.select('selectProjection', runId, projection.callId, turn)[0], runId);
  chain.push(projectionDraft(audit));
  return audit;
}
