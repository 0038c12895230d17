import canonicalize from 'canonicalize';

/** The `canonicalize` package's function: RFC 8785 (JCS) text of a JSON value. */
export type Canonicalize = (value: unknown) => string | undefined;

/** The RFC 8785 serializer of the `canonicalize` package (pinned to its CommonJS 2.x line). */
export function loadCanonicalize(): Canonicalize {
  return canonicalize;
}
