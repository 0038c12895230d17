import { ArgumentRule } from './argument-rules';

const GIT_SUBCOMMANDS = [
  'status', 'log', 'show', 'diff', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'branch', 'tag', 'describe', 'shortlog',
  'cat-file', 'merge-base', 'show-ref', 'name-rev', 'add', 'rm', 'mv', 'restore', 'checkout', 'switch', 'reset', 'commit', 'stash', 'init',
  'fetch', 'pull', 'push', 'clone', 'merge', 'rebase', 'cherry-pick', 'revert', 'apply', 'format-patch', 'diff-tree', 'whatchanged', 'version',
];

/**
 * Built-in argument rules, applied automatically to an allow-listed executable whose allow-list name
 * or real file name is one of these keys (unless the policy's `argumentRules` names it). Each refuses
 * the options with which the program runs a command, a pager, an editor or a script of the caller's
 * choosing, or writes or deletes files outside its usual work; the README lists what stays possible.
 */
export const BUILT_IN_ARGUMENT_PROFILES: Readonly<Record<string, ArgumentRule>> = Object.freeze({
  git: Object.freeze({
    subcommands: {
      allowed: GIT_SUBCOMMANDS,
      leadingOptions: ['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects', '--version', '-v', '-h'],
      leadingOptionsWithValue: ['-C'],
    },
    deniedOptions: ['--upload-pack', '--receive-pack', '--exec', '--ext-diff', '--open-files-in-pager', '--config-env', '--exec-path', '--template', '--recurse-submodules', '--help'],
    // A merge strategy `-s x` runs a program named `git-merge-x` found on PATH.
    deniedOptionsBySubcommand: {
      clone: ['-u', '-c', '--config'],
      grep: ['-O'],
      rebase: ['-x', '-s', '--strategy'],
      merge: ['-s', '--strategy'],
      pull: ['-s', '--strategy'],
      'cherry-pick': ['--strategy'],
      revert: ['--strategy'],
    },
    deniedArguments: [/^(ext|fd)::/i],
    // Settings of the repository itself (.git/config, hooks) that would run a command are overridden.
    leadingArgs: ['--no-pager', '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '-c', 'core.editor=false', '-c', 'sequence.editor=false', '-c', 'protocol.ext.allow=never', '-c', 'diff.external='],
    summary: `git runs only the subcommands ${GIT_SUBCOMMANDS.join(', ')}; -c, --config-env, aliases, pagers, editors, hooks, --upload-pack/--receive-pack/--exec and ext:: are refused or disabled.`,
  }),
  find: Object.freeze({
    deniedOptions: ['-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls', '-delete'],
    summary: 'find: -exec, -execdir, -ok, -okdir, -fprint, -fprint0, -fprintf, -fls and -delete are refused.',
  }),
  tar: Object.freeze({
    deniedOptions: [
      '--checkpoint-action', '--to-command', '--use-compress-program', '-I', '--rsh-command', '--rmt-command', '-F', '--info-script', '--new-volume-script',
      '--index-file', '--volno-file',
    ],
    shortOptionsInFirstArgument: true,
    leadingArgs: ['--force-local'],
    summary: 'tar: --checkpoint-action, --to-command, --use-compress-program/-I, --rsh-command, --rmt-command, -F/--info-script/--new-volume-script are refused; archive names with a colon are local files.',
  }),
  rg: Object.freeze({
    deniedOptions: ['--pre', '--pre-glob', '-z', '--search-zip', '--hostname-bin'],
    summary: 'rg: --pre, --pre-glob, -z/--search-zip and --hostname-bin are refused.',
  }),
  sed: Object.freeze({
    leadingArgs: ['--sandbox'],
    summary: 'sed runs with --sandbox: the e, r and w commands are refused by sed.',
  }),
  gawk: Object.freeze({
    leadingArgs: ['--sandbox'],
    summary: 'gawk runs with --sandbox: system(), pipes and redirections are refused by gawk.',
  }),
  env: Object.freeze({
    deniedOptions: ['-S', '--split-string'],
    operandPattern: /^[A-Za-z_][A-Za-z0-9_]*=/,
    summary: 'env only prints an environment: it runs no program.',
  }),
  ssh: Object.freeze({
    deniedOptions: ['-o', '-F', '-S'],
    summary: 'ssh: -o, -F and -S are refused (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec); the remote command still runs remotely.',
  }),
  scp: Object.freeze({
    deniedOptions: ['-o', '-F', '-S', '-J'],
    summary: 'scp: -o, -F, -S and -J are refused.',
  }),
  rsync: Object.freeze({
    deniedOptions: ['-e', '--rsh', '--rsync-path', '--daemon', '--config', '--write-batch', '--only-write-batch', '--read-batch'],
    summary: 'rsync: -e/--rsh, --rsync-path, --daemon, --config and batch files are refused.',
  }),
});
