import fc from 'fast-check';
import {
  checkToolOutputProjectionPolicy,
  DEFAULT_TOOL_OUTPUT_PROJECTION,
  TextTokenEstimator,
  ToolOutputProjectionPolicyError,
} from '../../lib/projection';
import { ToolOutputProjectionPolicy } from '../../lib/contract';
import {
  isWellFormedProjectionPolicy,
  projectionPolicyProblems,
} from '../../lib/projection/check-tool-output-projection-policy';

function policyError(act: () => void): ToolOutputProjectionPolicyError {
  try {
    act();
  } catch (error) {
    if (error instanceof ToolOutputProjectionPolicyError) return error;
    throw error;
  }
  throw new Error('expected a ToolOutputProjectionPolicyError');
}

describe('checkToolOutputProjectionPolicy', () => {
  it('accepts the default policy and the smallest legal one, in which the fallback estimator holds every envelope', () => {
    expect(() => checkToolOutputProjectionPolicy(DEFAULT_TOOL_OUTPUT_PROJECTION)).not.toThrow();
    expect(() => checkToolOutputProjectionPolicy({ maxBytes: 256, maxTokens: 128 })).not.toThrow();
    // Below 128 tokens is not a legal policy: the fallback counts the smallest failure envelope as 128 tokens.
    expect(() => checkToolOutputProjectionPolicy({ maxBytes: 256, maxTokens: 127 })).toThrow(
      /maxTokens must be an integer >= 128, got 127/,
    );
  });

  it('has frozen defaults of 64 KiB and 10,000 tokens', () => {
    expect(DEFAULT_TOOL_OUTPUT_PROJECTION).toEqual({ maxBytes: 65_536, maxTokens: 10_000 });
    expect(Object.isFrozen(DEFAULT_TOOL_OUTPUT_PROJECTION)).toBe(true);
  });

  it.each([
    [{ maxBytes: 255, maxTokens: 128 }, /maxBytes must be an integer >= 256, got 255/],
    [{ maxBytes: 256, maxTokens: 127 }, /maxTokens must be an integer >= 128, got 127/],
    [{ maxBytes: 256, maxTokens: 64 }, /maxTokens must be an integer >= 128, got 64/],
    [{ maxBytes: Number.NaN, maxTokens: 128 }, /maxBytes .* got NaN/],
    [{ maxBytes: Infinity, maxTokens: 128 }, /maxBytes .* got Infinity/],
    [{ maxBytes: 1024.5, maxTokens: 128 }, /maxBytes .* got 1024.5/],
    [{ maxBytes: 1024, maxTokens: -Infinity }, /maxTokens .* got -Infinity/],
    [{ maxBytes: '1024', maxTokens: 128 }, /maxBytes .* got string/],
    [{ maxTokens: 128 }, /maxBytes .* got undefined/],
  ])('rejects %p as invalid_policy', (policy, message) => {
    const error = policyError(() => checkToolOutputProjectionPolicy(policy as unknown as ToolOutputProjectionPolicy));
    expect(error.kind).toBe('invalid_policy');
    expect(error.code).toBe('invalid_projection_policy');
    expect(error.message).toMatch(message);
  });

  it('lists every numeric problem', () => {
    const error = policyError(() => checkToolOutputProjectionPolicy({ maxBytes: 1, maxTokens: 1 }));
    expect(error.problems).toHaveLength(2);
  });

  it('rejects a policy whose truncation envelopes do not fit under the injected estimator', () => {
    const onePerCharacter: TextTokenEstimator = { estimateTokens: (text) => text.length };
    const error = policyError(() =>
      checkToolOutputProjectionPolicy({ maxBytes: 256, maxTokens: 128 }, onePerCharacter),
    );
    expect(error.kind).toBe('envelope');
    expect(error.message).toMatch(
      /smallest truncated (text|structured success|array success|structured failure) has \d+ estimated tokens, over maxTokens 128/,
    );
    expect(() => checkToolOutputProjectionPolicy({ maxBytes: 256, maxTokens: 300 }, onePerCharacter)).not.toThrow();
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('tokenizer offline');
      },
      /tokenizer offline/,
    ],
    ['returns NaN', () => Number.NaN, /finite number >= 0, got NaN/],
    ['returns Infinity', () => Infinity, /got Infinity/],
    ['returns a negative', () => -1, /got -1/],
    ['returns a string', () => '12' as unknown as number, /got string/],
  ])('rejects an estimator that %s', (_name, estimateTokens, message) => {
    const error = policyError(() =>
      checkToolOutputProjectionPolicy(DEFAULT_TOOL_OUTPUT_PROJECTION, { estimateTokens }),
    );
    expect(error.kind).toBe('estimator');
    expect(error.message).toMatch(message);
  });

  it('rejects something that is not an estimator', () => {
    const error = policyError(() =>
      checkToolOutputProjectionPolicy(DEFAULT_TOOL_OUTPUT_PROJECTION, {} as TextTokenEstimator),
    );
    expect(error.kind).toBe('estimator');
  });
});

describe('isWellFormedProjectionPolicy', () => {
  const ceiling = fc.oneof(
    fc.integer({ min: -10, max: 70_000 }),
    fc.constantFrom(63, 64, 255, 256, Number.NaN, Infinity, -Infinity, 2 ** 53, 1024.5, '1024', null, undefined),
    fc.double(),
  );
  const policies = fc.oneof(
    fc.record({ maxBytes: ceiling, maxTokens: ceiling }),
    fc.record({ maxBytes: ceiling }),
    fc.constantFrom(null, undefined, 42, 'policy', []),
  );

  it('accepts exactly the policies in which projectionPolicyProblems finds nothing', () => {
    fc.assert(
      fc.property(policies, (policy) => {
        expect(isWellFormedProjectionPolicy(policy)).toBe(projectionPolicyProblems(policy).length === 0);
      }),
      { numRuns: 2_000 },
    );
    expect(isWellFormedProjectionPolicy(DEFAULT_TOOL_OUTPUT_PROJECTION)).toBe(true);
    expect(isWellFormedProjectionPolicy({ maxBytes: 256, maxTokens: 128 })).toBe(true);
    expect(isWellFormedProjectionPolicy({ maxBytes: 256, maxTokens: 127 })).toBe(false);
    expect(isWellFormedProjectionPolicy({ maxBytes: 255, maxTokens: 128 })).toBe(false);
  });
});
