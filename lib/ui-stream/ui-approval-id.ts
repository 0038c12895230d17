import { createHmac, timingSafeEqual } from 'node:crypto';
import { UIStreamError } from './ui-stream-error';

/**
 * How a host signs the approval ids it streams, and checks those a client sends back: an HMAC-SHA256 key the
 * host keeps (never sent to the client), the same in every process that streams or decides.
 */
export interface UIApprovalSigning {
  /** At least 32 bytes (a string counts its UTF-8 bytes). Rotate by signing with the new key; old ids then fail. */
  readonly secret: string | Uint8Array;
}

/** What an approval id is bound to: the run, the call (turn and call id), the tool and the arguments hash. */
export interface UIApprovalBinding {
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  /** The lowercase hex SHA-256 of the call's canonical arguments, as the run's store recorded it. */
  readonly argumentsSha256: string;
}

const PREFIX = 'wuwe-approval.v1.';
const MIN_SECRET_BYTES = 32;
/** An id longer than this is refused before any parsing (a client controls the text). */
const MAX_ID_LENGTH = 4096;

/** The key bytes of a signing, checked. @throws {@link UIStreamError} `invalid_options`. @internal */
export function keyOfSigning(signing: UIApprovalSigning | undefined): Buffer {
  const secret = signing?.secret;
  const key =
    typeof secret === 'string'
      ? Buffer.from(secret, 'utf8')
      : secret instanceof Uint8Array
        ? Buffer.from(secret)
        : undefined;
  if (key === undefined || key.length < MIN_SECRET_BYTES)
    throw new UIStreamError(
      'invalid_options',
      `the approval signing secret must be at least ${MIN_SECRET_BYTES} bytes`,
    );
  return key;
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(PREFIX).update(payload).digest();
}

/** The approval id a stream gives a call waiting for approval: the binding, and its HMAC under the host's key. */
export function signUIApprovalId(binding: UIApprovalBinding, signing: UIApprovalSigning | undefined): string {
  const key = keyOfSigning(signing);
  const { runId, turn, callId, toolName, argumentsSha256 } = binding;
  const payload = Buffer.from(JSON.stringify([runId, turn, callId, toolName, argumentsSha256]), 'utf8').toString(
    'base64url',
  );
  return `${PREFIX}${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The binding of an approval id this host signed.
 *
 * @throws {@link UIStreamError} `approval_forged` for any other text (wrong form, a MAC that does not verify, a
 *   payload of another shape); `invalid_options` for a bad secret.
 */
export function verifyUIApprovalId(id: unknown, signing: UIApprovalSigning | undefined): UIApprovalBinding {
  const key = keyOfSigning(signing);
  const forged = (why: string): UIStreamError =>
    new UIStreamError('approval_forged', `the approval id was not issued by this host: ${why}`);
  if (typeof id !== 'string' || id.length > MAX_ID_LENGTH || !id.startsWith(PREFIX)) throw forged('unknown form');
  const [payload, signature, ...rest] = id.slice(PREFIX.length).split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) throw forged('unknown form');
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw forged('its signature does not verify');
  const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (!Array.isArray(fields) || fields.length !== 5) throw forged('unknown payload');
  const [runId, turn, callId, toolName, argumentsSha256] = fields as unknown[];
  if (
    typeof runId !== 'string' ||
    typeof turn !== 'number' ||
    typeof callId !== 'string' ||
    typeof toolName !== 'string' ||
    typeof argumentsSha256 !== 'string'
  )
    throw forged('unknown payload');
  return { runId, turn, callId, toolName, argumentsSha256 };
}
