#!/usr/bin/env node
/** The `wuwe` executable: see {@link main}. */
import { main } from './main';
import { escapeTerminalText } from './terminal-text';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `wuwe: ${escapeTerminalText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    process.exitCode = 1;
  },
);
