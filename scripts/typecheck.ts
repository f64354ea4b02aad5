/**
 * `npm run typecheck` (decision 244): each TypeScript project with the types of the runtime that runs it.
 *
 *   tsconfig.json         the tests, the browser tests, the benchmarks and the editor: every type
 *   tsconfig.pwa.json     the PWA's sources as the browser runs them: DOM, no Node
 *   tsconfig.worker.json  the Worker from its entry down: workerd's types and its nodejs_compat part of Node
 *   tsconfig.node.json    the Node entry, the server code, the migrations and the scripts: Node, no DOM
 *
 * The PWA's program holds the server's code too (the API client's `AppType` is inferred from its routes),
 * but the browser never runs that code: its errors count in the PWA's project only for the PWA's own files,
 * and the server's files are checked as the Worker and Node run them. One process checks all four, each
 * file parsed once (a parsed file does not depend on the project's types).
 *
 *   node scripts/typecheck.ts [tsconfig.pwa.json ...]   the projects named, or all four
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

interface Project {
  config: string;
  /** Whose errors count: every file of the program, or only those its include/files name. */
  errorsOf: 'program' | 'included';
}

export const PROJECTS: Project[] = [
  { config: 'tsconfig.json', errorsOf: 'program' },
  { config: 'tsconfig.pwa.json', errorsOf: 'included' },
  { config: 'tsconfig.worker.json', errorsOf: 'program' },
  { config: 'tsconfig.node.json', errorsOf: 'program' },
];

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: hostFor(parsed.options),
    configFileParsingDiagnostics: parsed.errors,
  });
  const included = new Set(parsed.fileNames.map((name) => resolve(name)));
  const counted = program.getSourceFiles().filter((file) => project.errorsOf === 'program' || included.has(resolve(file.fileName)));
  return [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...counted.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
}

// Run, not imported (the test imports parseProject): import.meta.main would be undefined, and so pass, before Node 24.2.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const named = process.argv.slice(2);
  const projects =
    named.length === 0 ? PROJECTS : named.map((config) => PROJECTS.find((project) => project.config === config) ?? { config, errorsOf: 'program' as const });
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
