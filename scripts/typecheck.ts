/**
 * `npm run typecheck` (decision 244): each TypeScript project with the types of the runtime that runs it.
 *
 *   tsconfig.json         the tests, the browser tests, the benchmarks and the editor: every type
 *   tsconfig.pwa.json     the PWA's sources as the browser runs them: DOM, no Node
 *   tsconfig.worker.json  the Worker from its entry down: workerd's types and its nodejs_compat part of Node
 *   tsconfig.node.json    the Node entry, the server code, the migrations and the scripts: Node, no DOM
 *
 * The API client's `AppType` is inferred from the server's routes. The Node project, checked before the
 * PWA's, writes the server's declarations to `.types/api/` (decision 257), and the PWA's project reads
 * AppType from there (`@api-types`): its program holds the server's types, never its code, and every error
 * of it counts. One process checks all four, each file parsed once (a parsed file does not depend on the
 * project's types).
 *
 *   node scripts/typecheck.ts [tsconfig.pwa.json ...]   the projects named, or all four
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

interface Project {
  config: string;
  /** Writes the server's declarations to API_TYPES, for the PWA's project to read AppType from. */
  emitsApiTypes?: true;
}

/** In order: the Node project writes the declarations the PWA's project reads. */
export const PROJECTS: Project[] = [
  { config: 'tsconfig.json' },
  { config: 'tsconfig.node.json', emitsApiTypes: true },
  { config: 'tsconfig.pwa.json' },
  { config: 'tsconfig.worker.json' },
];

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the Node project's declarations of the server go (tsconfig.pwa.json's `@api-types` points inside). */
const API_TYPES = resolve(ROOT, '.types/api');
const SERVER = resolve(ROOT, 'edge-api/src');

/** The options that make a project's program write the server's declarations, and nothing else. */
function declarationOptions(options: ts.CompilerOptions): ts.CompilerOptions {
  return { ...options, noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: ROOT, outDir: API_TYPES };
}

/** Writes the declarations of the server's files (not the scripts' or the migrations'), fresh each time. */
function emitApiTypes(program: ts.Program): readonly ts.Diagnostic[] {
  rmSync(API_TYPES, { recursive: true, force: true });
  const writeFile: ts.WriteFileCallback = (fileName, text) => {
    if (!resolve(fileName).startsWith(`${resolve(API_TYPES, 'edge-api/src')}/`)) return;
    mkdirSync(dirname(fileName), { recursive: true });
    writeFileSync(fileName, text);
  };
  const server = program.getSourceFiles().filter((file) => resolve(file.fileName).startsWith(`${SERVER}/`));
  return server.flatMap((file) => program.emit(file, writeFile, undefined, true).diagnostics);
}

/** A project's parsed config (its options and the files its include/files name). */
export function parseProject(config: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`${config}: unreadable`);
  return parsed;
}

/** A compiler host that keeps what it parsed for the next project (same target: the same syntax tree). */
export function sharedHost(): (options: ts.CompilerOptions) => ts.CompilerHost {
  const parsed = new Map<string, ts.SourceFile | undefined>();
  return (options) => {
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
      const { languageVersion: target, impliedNodeFormat } =
        typeof languageVersion === 'object' ? languageVersion : { languageVersion, impliedNodeFormat: undefined };
      const key = `${target}:${impliedNodeFormat}:${fileName}`;
      if (!fresh && parsed.has(key)) return parsed.get(key);
      const file = read(fileName, languageVersion, onError, fresh);
      parsed.set(key, file);
      return file;
    };
    return host;
  };
}

function check(project: Project, hostFor: (options: ts.CompilerOptions) => ts.CompilerHost): readonly ts.Diagnostic[] {
  const parsed = parseProject(project.config);
  const options = project.emitsApiTypes ? declarationOptions(parsed.options) : parsed.options;
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options,
    host: hostFor(options),
    configFileParsingDiagnostics: parsed.errors,
  });
  return [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSourceFiles().flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
    ...(project.emitsApiTypes ? emitApiTypes(program) : []),
  ];
}

/** The projects named, in PROJECTS' order, with the Node project's declarations first when the PWA's needs them. */
function projectsFor(named: string[]): Project[] {
  if (named.length === 0) return PROJECTS;
  const wanted = new Set(named);
  if (wanted.has('tsconfig.pwa.json')) wanted.add('tsconfig.node.json');
  const known = PROJECTS.filter((project) => wanted.has(project.config));
  const unknown = named.filter((config) => !PROJECTS.some((project) => project.config === config)).map((config) => ({ config }));
  return [...known, ...unknown];
}

// Run, not imported (the test imports parseProject): import.meta.main would be undefined, and so pass, before Node 24.2.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const named = process.argv.slice(2);
  const projects = projectsFor(named);
  const hostFor = sharedHost();
  const format: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  let failed = 0;
  for (const project of projects) {
    const started = performance.now();
    const diagnostics = check(project, hostFor);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (diagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, format));
    console.log(`${project.config}: ${diagnostics.length === 0 ? 'no errors' : `${diagnostics.length} error(s)`} (${seconds} s)`);
    if (diagnostics.length > 0) failed++;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
