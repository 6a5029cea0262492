import { readdirSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';

// Every public export carries a TSDoc comment (the project's rule for its API).
it('every export of every src/<capability>/index.ts has a TSDoc comment', () => {
  const files = readdirSync('src').map((folder) => `src/${folder}/index.ts`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
  });
  const checker = program.getTypeChecker();
  const undocumented: string[] = [];
  let checked = 0;
  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      // Re-exports of other packages (TypeBox, AJV, Express) are documented there.
      if (declaration === undefined || declaration.getSourceFile().fileName.includes('node_modules'))
        continue;
      checked++;
      if (symbol.getDocumentationComment(checker).length === 0)
        undocumented.push(`${file}: ${exported.name}`);
    }
  }
  expect(checked).toBeGreaterThan(200);
  expect(undocumented).toEqual([]);
}, 60_000);
