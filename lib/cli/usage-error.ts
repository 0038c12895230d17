import { CommanderError } from 'commander';

/**
 * What was wrong with a command line the parser refused, as `--json` reports it in `error.usage`:
 * an unknown option or command, a missing argument, option value, required option or subcommand, too many
 * arguments, a value the parser refused, options that exclude each other, or `other`.
 */
export type UsageErrorKind =
  | 'unknown_option'
  | 'unknown_command'
  | 'missing_argument'
  | 'missing_option_value'
  | 'missing_required_option'
  | 'missing_command'
  | 'excess_arguments'
  | 'invalid_value'
  | 'conflicting_options'
  | 'other';

const KINDS: Readonly<Record<string, UsageErrorKind>> = {
  'commander.unknownOption': 'unknown_option',
  'commander.unknownCommand': 'unknown_command',
  'commander.missingArgument': 'missing_argument',
  'commander.optionMissingArgument': 'missing_option_value',
  'commander.missingMandatoryOptionValue': 'missing_required_option',
  // Help shown in place of an error: a command that needs a subcommand was given none.
  'commander.help': 'missing_command',
  'commander.excessArguments': 'excess_arguments',
  'commander.invalidArgument': 'invalid_value',
  'commander.conflictingOption': 'conflicting_options',
};

/** The stable kind of a parser error; the parser's own codes stay out of wuwe's output. */
export function usageErrorKind(error: CommanderError): UsageErrorKind {
  return KINDS[error.code] ?? 'other';
}

/** Whether the command line asks for JSON output: `--json` (or `--json=...`) anywhere in it. */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some((argument) => argument === '--json' || argument.startsWith('--json='));
}
