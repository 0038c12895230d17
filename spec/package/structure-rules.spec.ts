import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The structure rules of `lib/`, checked on the source itself (the TypeScript syntax tree), so that a file that breaks
 * one fails here rather than in a review:
 * - a file has at most {@link MAX_LINES} lines (one concern a file), but for the files named in {@link LONG_FILES};
 * - no `export *`: every entry names what it exports;
 * - every error class declares its own `static isInstance` (works across two copies of the package, and narrows to
 *   the class itself);
 * - no one-letter import alias (`as E`);
 * - `instanceof` only against the names of {@link INSTANCEOF_ALLOWED}: a plug-in seam (a store, a memory, a
 *   provider) checks with `isInstance`, never with `instanceof`, which fails across two copies of the package;
 * - no two classes, interfaces or type aliases of `lib/` share a name.
 */
const root = join(__dirname, '../..');
const MAX_LINES = 300;

/** Files allowed above {@link MAX_LINES}, each with its reason. */
const LONG_FILES: Readonly<Record<string, string>> = {
  'lib/runner/llm-agent-runner.ts':
    'the runner class: its protected methods are the documented steps, each with its one docblock',
};

/** The right-hand sides `instanceof` may have in `lib/`, each with its reason. */
const INSTANCEOF_ALLOWED: Readonly<Record<string, string>> = {
  Error: 'built-in',
  RegExp: 'built-in',
  Promise: 'built-in',
  Map: 'built-in',
  Uint8Array: 'built-in',
  CommanderError: "commander's own error class, from the one copy the CLI loads",
  DirectoryHandle: 'internal to the filesystem module, never handed to a host',
  InMemoryMemory: "the runner's own default memory (forgotten after a run); a host's memory is not required to be one",
  target: "the tool class a DI container was asked for: its instance must be one (the registry's check)",
  type: 'the helper behind `isInstanceOf`, which guards the check against a hostile proxy',
};

function libFiles(dir = join(root, 'lib')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return libFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** Every node of `source` that `select` answers a finding text for. */
function findings(select: (node: ts.Node, source: ts.SourceFile) => string | undefined): Finding[] {
  const found: Finding[] = [];
  for (const path of libFiles()) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      const text = select(node, source);
      if (text !== undefined)
        found.push({
          file: relative(root, path),
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          text,
        });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const where = (found: readonly Finding[]): string[] => found.map((f) => `${f.file}:${f.line} ${f.text}`);

describe('the structure rules of lib/', () => {
  it(`keeps every file at most ${MAX_LINES} lines, but the ones named with a reason`, () => {
    const long = libFiles()
      .map((path) => ({ file: relative(root, path), lines: readFileSync(path, 'utf8').split('\n').length }))
      .filter(({ file, lines }) => lines > MAX_LINES && LONG_FILES[file] === undefined)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
    // An exception that no longer needs to be one is removed from the list.
    const needless = Object.keys(LONG_FILES).filter(
      (file) => readFileSync(join(root, file), 'utf8').split('\n').length <= MAX_LINES,
    );
    expect(needless).toEqual([]);
  });

  it('has no export *', () => {
    const star = findings((node, source) =>
      ts.isExportDeclaration(node) && node.exportClause === undefined ? node.getText(source) : undefined,
    );
    expect(where(star)).toEqual([]);
  });

  it('gives every error class its own static isInstance', () => {
    const missing = findings((node) => {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return undefined;
      const base = node.heritageClauses
        ?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0]?.expression.getText();
      if (base === undefined || !/(^|[a-z])Error$/.test(base)) return undefined;
      const own = node.members.some(
        (member) =>
          ts.isMethodDeclaration(member) &&
          member.name.getText() === 'isInstance' &&
          (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static) !== 0,
      );
      return own ? undefined : `${node.name.text} extends ${base}`;
    });
    expect(where(missing)).toEqual([]);
  });

  it('has no one-letter import alias', () => {
    const aliases = findings((node, source) =>
      (ts.isImportSpecifier(node) || ts.isNamespaceImport(node)) && node.name.text.length === 1
        ? node.getText(source)
        : undefined,
    );
    expect(where(aliases)).toEqual([]);
  });

  it('uses instanceof only against the allowed names (plug-in seams check with isInstance)', () => {
    const checks = findings((node, source) =>
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword &&
      INSTANCEOF_ALLOWED[node.right.getText(source)] === undefined
        ? node.getText(source)
        : undefined,
    );
    expect(where(checks)).toEqual([]);
  });

  it('gives no two classes, interfaces or type aliases one name', () => {
    const declared = new Map<string, Set<string>>();
    findings((node) => {
      if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
        const name = node.name?.text;
        if (name !== undefined) {
          const files = declared.get(name) ?? new Set<string>();
          files.add(relative(root, node.getSourceFile().fileName));
          declared.set(name, files);
        }
      }
      return undefined;
    });
    const shared = [...declared]
      .filter(([, files]) => files.size > 1)
      .map(([name, files]) => `${name}: ${[...files].join(', ')}`);
    expect(shared).toEqual([]);
  });
});
