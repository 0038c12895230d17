import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  setupFiles: ['reflect-metadata'],
  // Without WUWE_TEST_POSTGRES_URL, a throwaway PostgreSQL is started for the run (or the run fails saying how to get one);
  // the package specs share one packed tarball through WUWE_TEST_RUN_DIR.
  globalSetup: '<rootDir>/spec/support/global-setup.ts',
  globalTeardown: '<rootDir>/spec/support/global-teardown.ts',
  // Tests may import the package by its name, as users do; it resolves to the sources.
  moduleNameMapper: { '^wuwe$': '<rootDir>/lib/index.ts' },
  transform: {
    // Type checking runs once in `npm run typecheck`; jest only transpiles.
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  testTimeout: 30000,
};

export default config;
