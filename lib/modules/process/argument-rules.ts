import { ProcessError } from './process-error';

/**
 * Rules for the arguments of one executable, checked before anything is started. Option spellings
 * are matched generally: a long option `--name` also matches `--name=value` and every abbreviation
 * GNU `getopt_long` and git accept (`--checkpoint-act=`); a short option `-x` also matches an
 * attached value (`-xvalue`) and a cluster holding it (`-vxf`), and `-x` with `shortOptionsInFirstArgument`
 * matches a dash-less first argument (`tar cxf`); a single-dash long option (`-exec`) matches
 * itself and `-exec=value`. Matching is deliberately broad: an argument that only looks like a
 * refused option (a value starting with `-`) is refused too.
 */
export interface ArgumentRule {
  /** Options refused anywhere in the arguments. */
  readonly deniedOptions?: readonly string[];
  /**
   * When set, the first argument that is not an option must be one of `allowed`; options before it
   * must be in `leadingOptions` (a `leadingOptionsWithValue` entry takes the next argument as its value).
   */
  readonly subcommands?: {
    readonly allowed: readonly string[];
    readonly leadingOptions?: readonly string[];
    readonly leadingOptionsWithValue?: readonly string[];
  };
  /** Options refused after a given subcommand only (e.g. git `clone -u`). */
  readonly deniedOptionsBySubcommand?: Readonly<Record<string, readonly string[]>>;
  /** Arguments refused when they match (e.g. git's `ext::` transport). */
  readonly deniedArguments?: readonly RegExp[];
  /** Every argument that is not an option must match this (e.g. `NAME=value` for `env`, so it runs no program). */
  readonly operandPattern?: RegExp;
  /** Treat a first argument without a dash as a cluster of short options, as `tar` and `ps` do. @default false */
  readonly shortOptionsInFirstArgument?: boolean;
  /** Arguments put in front of the caller's (e.g. `--sandbox` for sed); not checked. @default [] */
  readonly leadingArgs?: readonly string[];
  /** One line for the model on what is refused; shown in the tool description. */
  readonly summary?: string;
}

const OPTION_SPELLING = /^(--[A-Za-z0-9][A-Za-z0-9-]*|-[A-Za-z0-9]|-[A-Za-z0-9][A-Za-z0-9-]+)$/;

/** Problems of a rule (malformed option spellings, wrong types), for `invalid_policy`. */
export function ruleProblems(name: string, rule: ArgumentRule): string[] {
  const problems: string[] = [];
  const spellings = (list: unknown, label: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) return problems.push(`argumentRules.${name}.${label} must be an array`);
    for (const option of list as unknown[])
      if (typeof option !== 'string' || !OPTION_SPELLING.test(option))
        problems.push(
          `argumentRules.${name}.${label}: '${String(option)}' is not an option spelling (-x, --name or -name)`,
        );
  };
  spellings(rule.deniedOptions, 'deniedOptions');
  spellings(rule.subcommands?.leadingOptions, 'subcommands.leadingOptions');
  spellings(rule.subcommands?.leadingOptionsWithValue, 'subcommands.leadingOptionsWithValue');
  for (const [subcommand, list] of Object.entries(rule.deniedOptionsBySubcommand ?? {}))
    spellings(list, `deniedOptionsBySubcommand.${subcommand}`);
  if (rule.subcommands !== undefined && !Array.isArray(rule.subcommands.allowed))
    problems.push(`argumentRules.${name}.subcommands.allowed must be an array`);
  if (
    rule.deniedArguments !== undefined &&
    (!Array.isArray(rule.deniedArguments) || !rule.deniedArguments.every((pattern) => pattern instanceof RegExp))
  )
    problems.push(`argumentRules.${name}.deniedArguments must be an array of RegExp`);
  if (rule.operandPattern !== undefined && !(rule.operandPattern instanceof RegExp))
    problems.push(`argumentRules.${name}.operandPattern must be a RegExp`);
  if (
    rule.leadingArgs !== undefined &&
    (!Array.isArray(rule.leadingArgs) ||
      !rule.leadingArgs.every((arg) => typeof arg === 'string' && !arg.includes('\0')))
  )
    problems.push(`argumentRules.${name}.leadingArgs must be an array of strings`);
  return problems;
}

/**
 * Throws `argument_not_allowed` for the first argument the rule refuses; returns the arguments to run, `leadingArgs`
 * first.
 */
export function applyArgumentRule(executable: string, rule: ArgumentRule, args: readonly string[]): readonly string[] {
  const refuse = (index: number, why: string): never => {
    throw new ProcessError(
      'argument_not_allowed',
      `Argument ${index} of '${executable}' is refused: ${why}.${rule.summary === undefined ? '' : ` ${rule.summary}`}`,
      { executable, index },
    );
  };
  let denied = rule.deniedOptions ?? [];
  let first = 0;
  if (rule.subcommands !== undefined) {
    const { allowed, leadingOptions = [], leadingOptionsWithValue = [] } = rule.subcommands;
    while (first < args.length && args[first].startsWith('-')) {
      const option = args[first];
      if (leadingOptionsWithValue.includes(option)) first += 2;
      else if (leadingOptions.includes(option)) first += 1;
      else refuse(first, `'${clip(option)}' is not allowed before the subcommand`);
    }
    if (first < args.length) {
      const subcommand = args[first];
      if (!allowed.includes(subcommand))
        refuse(first, `the subcommand '${clip(subcommand)}' is not allowed (allowed: ${allowed.join(', ')})`);
      denied = [...denied, ...(rule.deniedOptionsBySubcommand?.[subcommand] ?? [])];
      first += 1;
    }
  }
  args.forEach((arg, index) => {
    for (const pattern of rule.deniedArguments ?? [])
      if (pattern.test(arg)) refuse(index, `'${clip(arg)}' is not allowed`);
    if (index < first && rule.subcommands !== undefined) return;
    const option = matchedOption(arg, denied, index === 0 && rule.shortOptionsInFirstArgument === true);
    if (option !== undefined) refuse(index, `the option ${option} is not allowed`);
    if (rule.operandPattern !== undefined && !arg.startsWith('-') && !rule.operandPattern.test(arg))
      refuse(index, `'${clip(arg)}' is not allowed here`);
  });
  return [...(rule.leadingArgs ?? []), ...args];
}

/** The denied option `arg` spells, if any (see {@link ArgumentRule} for the spellings matched). */
export function matchedOption(arg: string, denied: readonly string[], dashlessCluster = false): string | undefined {
  if (arg.startsWith('--')) {
    const name = arg.slice(2).split('=')[0];
    if (name.length === 0) return undefined;
    return denied.find((option) => option.startsWith('--') && option.slice(2).startsWith(name));
  }
  const cluster = arg.startsWith('-') ? arg.slice(1) : dashlessCluster ? arg : undefined;
  if (cluster === undefined || cluster.length === 0) return undefined;
  return denied.find((option) => {
    if (option.startsWith('--')) return false;
    if (option.length === 2) return cluster.includes(option[1]);
    return arg === option || arg.startsWith(`${option}=`);
  });
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
