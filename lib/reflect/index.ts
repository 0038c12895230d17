export type {
  ClassType,
  FieldItemType,
  FieldOptions,
  FieldTraits,
  FieldTypeOption,
  ScalarTypeName,
  ToolOptions,
} from './field-options';
export { ToolDefinitionError } from './tool-definition-error';
export type { ToolDefinitionErrorCode } from './tool-definition-error';
export { Tool } from './tool-decorator';
export { Field, fieldTraits } from './field-decorator';
export { Contract, toolContract } from './contract-decorator';
export { getToolMetadataStorage, ToolMetadataStorage } from './metadata-storage';
export type { FieldRecord, ContractSource } from './metadata-storage';
export type { FieldKind } from './field-kind';
export type { ClassPlan, FieldPlan } from './class-plan';
export { buildClassSchema } from './build-class-schema';
export type { BuiltClassSchema, FieldDefault } from './build-class-schema';
export { toolClassInfo } from './tool-class-info';
