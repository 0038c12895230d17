/** The resolved type of a field, from which both its schema and its instance conversion follow. */
export type FieldKind =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'integer' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'enum'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'object'; readonly target: Function; readonly ref: boolean }
  | { readonly kind: 'array'; readonly items: FieldKind };
