import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';

/** A TypeScript code block of a Markdown document. */
export interface DocBlock {
  /** The document, relative to the repository root (`README.md`, `docs/x.md`). */
  readonly document: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** A file name for the block: the document's stem and the line, e.g. `readme-0082`. */
  readonly name: string;
  /** The code, de-indented by the fence's indentation. */
  readonly code: string;
  /** The wrapper named by a `<!-- fragment: name -->` comment on the line before the fence. */
  readonly fragment?: string;
}

const OPENING_FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const FRAGMENT_MARK = /^\s*<!--\s*fragment:\s*([\w-]+)\s*-->\s*$/;
const TYPESCRIPT = new Set(['ts', 'typescript']);

/** Every `ts` block of `README.md` and of `docs/*.md` under `root`. */
export function documentationBlocks(root: string): DocBlock[] {
  const documents = [join(root, 'README.md')];
  const docs = join(root, 'docs');
  if (existsSync(docs))
    documents.push(
      ...readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => join(docs, name)),
    );
  return documents.flatMap((path) => markdownBlocks(relative(root, path), readFileSync(path, 'utf8')));
}

/** The `ts` blocks of one Markdown text. An unclosed fence is an error: the rest of the text would be code. */
export function markdownBlocks(document: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const stem = basename(document, '.md').toLowerCase();
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING_FENCE.exec(lines[index]);
    if (opening === null) continue;
    const [, indent, fence, language] = opening;
    const closing = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
    const end = lines.findIndex((line, at) => at > index && closing.test(line));
    if (end < 0) throw new Error(`${document}:${index + 1}: the fence is never closed`);
    if (TYPESCRIPT.has(language.toLowerCase())) {
      const code = lines
        .slice(index + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
        .join('\n');
      const previous = index > 0 ? FRAGMENT_MARK.exec(lines[index - 1]) : null;
      blocks.push({
        document,
        line: index + 1,
        name: `${stem}-${String(index + 1).padStart(4, '0')}`,
        code,
        fragment: previous?.[1],
      });
    }
    index = end;
  }
  return blocks;
}

/** The names a module exports, read from its declaration file (`export { a, b as c }`, declarations). */
export function exportedNames(declarationFile: string): Set<string> {
  const source = ts.createSourceFile(declarationFile, readFileSync(declarationFile, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause !== undefined &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    }
  }
  return names;
}

/** What a program's top level imports and declares, and every identifier it mentions. */
interface ProgramNames {
  readonly declared: Set<string>;
  readonly mentioned: Set<string>;
  /** Whether the top level awaits (`await`, `for await`), which a CommonJS module cannot. */
  readonly topLevelAwait: boolean;
}

function programNames(code: string): ProgramNames {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true);
  const declared = new Set<string>();
  const mentioned = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name !== undefined) declared.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) declared.add(bindings.name.text);
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const element of bindings.elements) declared.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) collectBindingNames(declaration.name, declared);
    } else if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      declared.add(statement.name.text);
    }
  }
  let topLevelAwait = false;
  const visit = (node: ts.Node, inFunction: boolean): void => {
    if (ts.isIdentifier(node)) mentioned.add(node.text);
    if (!inFunction && (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)))
      topLevelAwait = true;
    const entersFunction = inFunction || ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node);
    ts.forEachChild(node, (child) => visit(child, entersFunction));
  };
  visit(source, false);
  return { declared, mentioned, topLevelAwait };
}

function collectBindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else
    for (const element of name.elements) if (!ts.isOmittedExpression(element)) collectBindingNames(element.name, into);
}

/**
 * The program a block stands for: `import 'reflect-metadata'`, an import of every name of the package root
 * that the block (and its wrapper's prelude) mentions without importing or declaring it (the obvious
 * imports a reader adds), the prelude, then the block as written.
 */
export function blockProgram(code: string, rootExports: ReadonlySet<string>, prelude = ''): string {
  const names = programNames(`${prelude}\n${code}`);
  const imports = [...names.mentioned].filter((name) => rootExports.has(name) && !names.declared.has(name)).sort();
  const header = [
    "import 'reflect-metadata';",
    imports.length > 0 ? `import { ${imports.join(', ')} } from 'wuwe';` : '',
  ];
  return [...header, prelude, code, ''].join('\n');
}

/**
 * The same program for a CommonJS module, which cannot await at its top level: its imports stay at the
 * top, the rest runs in an async function, as the README says to write it there. A program without a
 * top-level await is returned unchanged.
 */
export function commonJsProgram(program: string): string {
  if (!programNames(program).topLevelAwait) return program;
  const source = ts.createSourceFile('block.ts', program, ts.ScriptTarget.Latest, true);
  // Imports and ambient declarations (`declare const`) must stay at the top level.
  const staysOnTop = (statement: ts.Statement): boolean =>
    ts.isImportDeclaration(statement) ||
    (ts.canHaveModifiers(statement) &&
      (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword));
  const imports = source.statements.filter(staysOnTop).map((statement) => statement.getFullText(source));
  const rest = source.statements
    .filter((statement) => !staysOnTop(statement))
    .map((statement) => statement.getFullText(source));
  return [...imports, '', 'async function main(): Promise<void> {', ...rest, '}', 'void main();', ''].join('\n');
}
