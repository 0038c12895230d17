import path from 'node:path';
import ts from 'typescript';
import { typeScriptFiles } from './reflect/toolchains';

/**
 * A field a subclass declares that its base class's constructor (or a method that constructor calls
 * through `this`) already set. With define semantics for class fields (`useDefineForClassFields`,
 * TypeScript's default from target ES2022, esbuild's and swc's with modern targets) the field is
 * redefined right after `super()` returns: to its initializer, or to `undefined`.
 */
interface ClobberedField {
  readonly className: string;
  readonly field: string;
  readonly file: string;
}

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
]);

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind);
}

/** `this.name` in `node`: the names written (assigned) and the methods called. */
function thisUses(node: ts.Node | undefined): { written: Set<string>; called: Set<string> } {
  const written = new Set<string>();
  const called = new Set<string>();
  const visit = (child: ts.Node): void => {
    if (
      ts.isBinaryExpression(child) &&
      ASSIGNMENTS.has(child.operatorToken.kind) &&
      ts.isPropertyAccessExpression(child.left) &&
      child.left.expression.kind === ts.SyntaxKind.ThisKeyword
    )
      written.add(child.left.name.text);
    if (
      ts.isCallExpression(child) &&
      ts.isPropertyAccessExpression(child.expression) &&
      child.expression.expression.kind === ts.SyntaxKind.ThisKeyword
    )
      called.add(child.expression.name.text);
    // A nested function or class has its own `this`.
    if (ts.isFunctionDeclaration(child) || ts.isFunctionExpression(child) || ts.isClassLike(child)) return;
    ts.forEachChild(child, visit);
  };
  if (node !== undefined) ts.forEachChild(node, visit);
  return { written, called };
}

/** The class declarations `declaration` extends, nearest first (those the checker can find in source). */
function ancestors(declaration: ts.ClassLikeDeclaration, checker: ts.TypeChecker): ts.ClassLikeDeclaration[] {
  const chain: ts.ClassLikeDeclaration[] = [];
  let current: ts.ClassLikeDeclaration | undefined = declaration;
  while (current !== undefined) {
    const heritage: ts.ExpressionWithTypeArguments | undefined = current.heritageClauses?.find(
      (clause) => clause.token === ts.SyntaxKind.ExtendsKeyword,
    )?.types[0];
    if (heritage === undefined) break;
    let symbol = checker.getSymbolAtLocation(heritage.expression);
    if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    current = symbol?.declarations?.find((candidate): candidate is ts.ClassDeclaration =>
      ts.isClassDeclaration(candidate),
    );
    if (current !== undefined) chain.push(current);
  }
  return chain;
}

/** The names every base class of `declaration` sets while it is constructed. */
function setByBaseConstructors(
  declaration: ts.ClassLikeDeclaration,
  bases: readonly ts.ClassLikeDeclaration[],
): Set<string> {
  const methods = new Map<string, ts.Node[]>();
  for (const owner of [declaration, ...bases])
    for (const member of owner.members)
      if (
        (ts.isMethodDeclaration(member) || ts.isSetAccessor(member)) &&
        member.name !== undefined &&
        ts.isIdentifier(member.name) &&
        !hasModifier(member, ts.SyntaxKind.StaticKeyword)
      )
        methods.set(member.name.text, [...(methods.get(member.name.text) ?? []), member]);
  const set = new Set<string>();
  const pending: ts.Node[] = [];
  const reached = new Set<string>();
  for (const base of bases)
    for (const member of base.members) {
      if (ts.isConstructorDeclaration(member)) {
        pending.push(member);
        for (const parameter of member.parameters)
          if (ts.isParameterPropertyDeclaration(parameter, member) && ts.isIdentifier(parameter.name))
            set.add(parameter.name.text);
      }
      if (
        ts.isPropertyDeclaration(member) &&
        !hasModifier(member, ts.SyntaxKind.StaticKeyword) &&
        member.initializer !== undefined
      )
        set.add(member.name.getText());
    }
  while (pending.length > 0) {
    const { written, called } = thisUses(pending.pop());
    for (const name of written) set.add(name);
    for (const name of called) {
      if (reached.has(name)) continue;
      reached.add(name);
      pending.push(...(methods.get(name) ?? []));
    }
  }
  return set;
}

/** Every field of a class among `files` that a base constructor's work would be clobbered by under define semantics. */
function clobberedFields(files: readonly string[]): ClobberedField[] {
  const program = ts.createProgram([...files], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    experimentalDecorators: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const found: ClobberedField[] = [];
  for (const source of program.getSourceFiles()) {
    if (!files.includes(path.resolve(source.fileName))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassLike(node)) {
        const bases = ancestors(node, checker);
        if (bases.length > 0) {
          const set = setByBaseConstructors(node, bases);
          for (const member of node.members)
            if (
              ts.isPropertyDeclaration(member) &&
              !hasModifier(member, ts.SyntaxKind.StaticKeyword) &&
              !hasModifier(member, ts.SyntaxKind.DeclareKeyword) &&
              set.has(member.name.getText())
            )
              found.push({
                className: node.name?.text ?? '(anonymous)',
                field: member.name.getText(),
                file: path.relative(process.cwd(), source.fileName),
              });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('class fields under define semantics (useDefineForClassFields)', () => {
  it('no class in lib/ declares a field its base constructor, or a method that constructor calls, sets', () => {
    const files = typeScriptFiles(path.join(__dirname, '..', 'lib')).map((file) => path.resolve(file));
    expect(clobberedFields(files)).toEqual([]);
  }, 60_000);

  it('the check finds such a field: set through an overridden method, redeclared, or assigned in the base constructor; not a `declare` field', () => {
    const file = path.join(__dirname, 'reflect', 'fixtures', 'clobbered-fields.ts');
    expect(clobberedFields([path.resolve(file)])).toEqual([
      { className: 'Registry', field: 'byName', file: path.relative(process.cwd(), file) },
      { className: 'Narrowed', field: 'options', file: path.relative(process.cwd(), file) },
      { className: 'Counted', field: 'count', file: path.relative(process.cwd(), file) },
      { className: 'DeepRegistry', field: 'deepCount', file: path.relative(process.cwd(), file) },
    ]);
  });
});
