export { WuweError } from './wuwe-error';
export { MissingDependencyError, loadOptionalDependency } from './optional-dependency';
