import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Each file and the files of the repository it imports (type-only imports and re-exports included). */
export type ImportGraph = Map<string, string[]>;

const SKIPPED = new Set(['node_modules', 'cdk.out', 'coverage', 'dist', 'generated']);

const sourceFiles = (root: string, folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory())
      return SKIPPED.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(root, path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

const resolveImport = (root: string, from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  const found = [`${base}.ts`, join(base, 'index.ts'), base].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile() && candidate.endsWith('.ts'),
  );
  return found && relative(root, found);
};

/** The import graph of every TypeScript file under `folders` of `root`. */
export const importGraph = (root: string, folders: readonly string[]): ImportGraph =>
  new Map(
    folders
      .filter((folder) => existsSync(join(root, folder)))
      .flatMap((folder) => sourceFiles(root, folder))
      .map((file) => {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
        const imports = importedFiles.flatMap(({ fileName }) => resolveImport(root, file, fileName) ?? []);
        return [file, [...new Set(imports)]];
      }),
  );

/** Every circle of the graph: its strongly connected components of more than one file, or a file importing itself. */
export const importCircles = (graph: ImportGraph): string[][] => {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, index.get(next)!));
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
};
