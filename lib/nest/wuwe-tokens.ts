/** Injection token of the module's `RunStore` (when `forRoot` was given one): `@Inject(WUWE_RUN_STORE)`. */
export const WUWE_RUN_STORE = Symbol.for('wuwe.nest.RunStore');

/** Injection token of the resolved {@link WuweModuleOptions}. */
export const WUWE_MODULE_OPTIONS = Symbol.for('wuwe.nest.WuweModuleOptions');
