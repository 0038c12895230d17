/**
 * Variables that never reach a child, even when allowed: each makes some program load or run code
 * of the caller's choosing, or read its configuration (which can name a command) from elsewhere.
 */
export const DENIED_ENVIRONMENT_NAMES: readonly string[] = Object.freeze([
  // Shells: startup files, traced prompts, word splitting, function search paths.
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'PROMPT_COMMAND',
  'IFS',
  'CDPATH',
  'FPATH',
  'ZDOTDIR',
  'HISTFILE',
  'INPUTRC',
  // Programs that other programs start for the user.
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'MANOPT',
  'BROWSER',
  'SSH_ASKPASS',
  'SSH_ASKPASS_REQUIRE',
  'SUDO_ASKPASS',
  'TAR_OPTIONS',
  // Interpreters and virtual machines.
  'CLASSPATH',
  'JAVA_HOME',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'ANT_OPTS',
  'SBT_OPTS',
  'GEM_PATH',
  'GEM_HOME',
  'BUNDLE_GEMFILE',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'TCLLIBPATH',
  'EMACSLOADPATH',
  'VIMINIT',
  'EXINIT',
  'MYVIMRC',
  'GVIMINIT',
  'OCAMLRUNPARAM',
  // The C library and the libraries it loads.
  'GCONV_PATH',
  'GLIBC_TUNABLES',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'OPENSSL_MODULES',
  // Network clients' configuration files.
  'WGETRC',
  'SYSTEM_WGETRC',
  'CURL_HOME',
  'NETRC',
]);

/**
 * Name prefixes that never reach a child (see {@link DENIED_ENVIRONMENT_NAMES}), except the names of {@link
 * PERMITTED_ENVIRONMENT_NAMES}.
 */
export const DENIED_ENVIRONMENT_PREFIXES: readonly string[] = Object.freeze([
  'LD_',
  'DYLD_',
  'MALLOC_',
  'BASH_', // BASH_ENV, BASH_FUNC_*, BASH_LOADABLES_PATH, BASH_XTRACEFD
  'GIT_', // GIT_CONFIG_*, GIT_SSH*, GIT_EXEC_PATH, GIT_ASKPASS, GIT_DIR, GIT_TEMPLATE_DIR, GIT_TRACE*, ...
  'PYTHON', // PYTHONSTARTUP, PYTHONPATH, PYTHONWARNINGS, PYTHONBREAKPOINT, ...
  'PERL', // PERL5OPT, PERL5LIB, PERL5DB, PERL_MB_OPT, ...
  'RUBY', // RUBYOPT, RUBYLIB, RUBYSHELL
  'NODE_', // NODE_OPTIONS, NODE_PATH, NODE_REPL_EXTERNAL_MODULE, ...
  'NPM_CONFIG_', // npm_config_script_shell, npm_config_node_options, ...
  'YARN_',
  'JAVA_',
  '_JAVA_',
  'JDK_JAVA_', // JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, JDK_JAVA_OPTIONS
  'LUA_', // LUA_INIT, LUA_INIT_5_4, LUA_PATH, LUA_CPATH
  'R_PROFILE',
  'R_ENVIRON',
  'R_LIBS',
  'LESS', // LESSOPEN, LESSCLOSE, LESSKEY, LESS (options can run commands)
]);

/** Names under a denied prefix that change no program's code and stay allowed. */
export const PERMITTED_ENVIRONMENT_NAMES: readonly string[] = Object.freeze([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONIOENCODING',
  'PYTHONHASHSEED',
  'PYTHONUTF8',
  'NODE_ENV',
]);

/**
 * Names the host may pass (from its base environment or fixed values) but a caller may not set:
 * they say where programs read their configuration (`~/.gitconfig` can name a command to run).
 */
export const HOST_ONLY_ENVIRONMENT_NAMES: readonly string[] = Object.freeze([
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_HOME',
  'XDG_DATA_DIRS',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
]);

/** True when `name` may never be passed to a child, compared without case (see {@link DENIED_ENVIRONMENT_NAMES}). */
export function isDeniedEnvironmentName(name: string): boolean {
  const upper = name.toUpperCase();
  if (PERMITTED_ENVIRONMENT_NAMES.includes(upper)) return false;
  return (
    DENIED_ENVIRONMENT_NAMES.includes(upper) || DENIED_ENVIRONMENT_PREFIXES.some((prefix) => upper.startsWith(prefix))
  );
}

/** True when only the host, never a caller, may give `name` a value (see {@link HOST_ONLY_ENVIRONMENT_NAMES}). */
export function isHostOnlyEnvironmentName(name: string): boolean {
  return HOST_ONLY_ENVIRONMENT_NAMES.includes(name.toUpperCase());
}
