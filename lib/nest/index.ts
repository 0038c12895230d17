/**
 * wuwe/nest: the NestJS module (`WuweModule.forRoot`, `forFeature`). Needs the optional peers
 * `@nestjs/common` and `@nestjs/core`, loaded on first use.
 * @packageDocumentation
 */
export { WuweModule, WuweFeatureModule } from './wuwe-module';
export type { WuweFeatureOptions } from './wuwe-module';
export type { WuweModuleOptions } from './wuwe-module-options';
export { WuweToolHost } from './wuwe-tool-host';
export { WUWE_RUN_STORE, WUWE_MODULE_OPTIONS } from './wuwe-tokens';
