import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EDGE_API_SECTIONS } from '@tally/http';
import { publicEventTypesOf } from '@tally/runtime';
import { CONTEXT_MANIFESTS } from '../apps/contexts';

const ROOT = join(__dirname, '..');
const FORBIDDEN = /from '(@nestjs\/[^']+|mongodb|better-sqlite3|@eventstore\/[^']+|express|supertest|node:http|@tally\/(eventstore|readstore|observability|cells|runtime|http)[^']*)'/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function foldersNamed(name: string, dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => (entry.name === name ? [join(dir, entry.name)] : foldersNamed(name, join(dir, entry.name))));
}

const domainFolders = foldersNamed('domain', join(ROOT, 'libs'));

describe('architecture', () => {
  it('has domain folders to check', () => expect(domainFolders.length).toBeGreaterThan(0));

  it.each(domainFolders.map((dir) => [relative(ROOT, dir)]))('keeps %s free of Nest, databases, HTTP and infrastructure', (dir) => {
    const offenders = filesUnder(join(ROOT, dir))
      .filter((file) => !file.endsWith('.spec.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => FORBIDDEN.test(line))
          .map((line) => `${relative(ROOT, file)}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  /** The registered contexts, each in its library of the same name. */
  const CONTEXTS = CONTEXT_MANIFESTS.map((context) => context.name);
  const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/from '(@tally\/[^']+)'/g)].map(([, specifier]) => specifier);

  it.each(CONTEXTS)('keeps the other contexts out of the domain of %s: they use its published entry', (context) => {
    const offenders = filesUnder(join(ROOT, 'libs'))
      .concat(filesUnder(join(ROOT, 'apps')), filesUnder(join(ROOT, 'bench')))
      .filter((file) => !file.startsWith(join(ROOT, 'libs', context) + '/'))
      .flatMap((file) => importsOf(file).filter((specifier) => specifier.startsWith(`@tally/${context}/domain`)).map((specifier) => `${relative(ROOT, file)}: ${specifier}`));
    expect(offenders).toEqual([]);
  });

  it.each(CONTEXTS)('lets the other contexts import %s only through its index or its published entry', (context) => {
    const entries = [`@tally/${context}`, `@tally/${context}/published`];
    const offenders = filesUnder(join(ROOT, 'libs'))
      .concat(filesUnder(join(ROOT, 'apps')))
      .filter((file) => !file.startsWith(join(ROOT, 'libs', context) + '/') && !file.endsWith('.spec.ts'))
      .flatMap((file) => importsOf(file).filter((specifier) => specifier.startsWith(`@tally/${context}/`) && !entries.includes(specifier)).map((specifier) => `${relative(ROOT, file)}: ${specifier}`));
    expect(offenders).toEqual([]);
  });

  it('keeps each published entry pure: it re-exports its own domain only', () => {
    const entries = CONTEXTS.map((context) => join(ROOT, 'libs', context, 'src', 'published.ts')).filter((file) => statSync(file, { throwIfNoEntry: false }));
    expect(entries.length).toBeGreaterThan(0);
    const offenders = entries.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map(([, specifier]) => specifier).filter((specifier) => !specifier.startsWith('./domain/')).map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  /** The exports of another context that a file imports, by the context they come from. */
  const importedFromOtherContexts = (file: string, own: string): { name: string; context: string }[] =>
    [...readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from '@tally\/([a-z]+)'/g)]
      .filter(([, , context]) => context !== own && CONTEXTS.includes(context))
      .flatMap(([, names, context]) =>
        names
          .split(',')
          .map((name) => name.replace(/^\s*type\s+/, '').split(/\s+as\s+/).pop()!.trim())
          .filter((name) => name !== '')
          .map((name) => ({ name, context })),
      );
  const contextSources = (context: string) => filesUnder(join(ROOT, 'libs', context, 'src')).filter((file) => !file.endsWith('.spec.ts') && !file.includes('/testing/'));

  /** A context sends another context's commands through what that context publishes (`publishedCommands`), never its full aggregate definition. */
  it('lets a context change another context’s aggregate only through that context’s published commands', () => {
    const offenders = CONTEXTS.flatMap((context) =>
      contextSources(context).flatMap((file) => {
        const source = readFileSync(file, 'utf8');
        return importedFromOtherContexts(file, context)
          .filter(({ name }) => name.endsWith('Aggregate'))
          .filter(({ name }) => new RegExp(`\\.(execute|send)\\(\\s*(cell,\\s*)?${name}\\b`).test(source))
          .map(({ name }) => `${relative(ROOT, file)}: ${name}`);
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps read models out of the write paths: command handlers, reactions and process managers decide from the event store', () => {
    const sendsCommands = (declaration: string) => /readonly \w+: (Commands|CommandRuntime)\b/.test(declaration) && /\.(send|execute)\(/.test(declaration);
    const isWritePath = (declaration: string) => /@CommandHandler\(|implements (Reaction|ProcessManager)\b/.test(declaration) || sendsCommands(declaration);
    const offenders = CONTEXTS.flatMap((context) =>
      contextSources(context).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split(/\n(?=@)|(?<!\n@[^\n]*)\n(?=(?:export )?class )/)
          .filter((declaration) => isWritePath(declaration) && /\bScopedReads\b/.test(declaration))
          .map((declaration) => `${relative(ROOT, file)}: ${/class (\w+)/.exec(declaration)?.[1]}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  const libs = readdirSync(join(ROOT, 'libs'));
  /** Which libs each lib imports, outside its tests. */
  const libEdges = new Map(
    libs.map((lib) => [
      lib,
      new Set(
        filesUnder(join(ROOT, 'libs', lib, 'src'))
          .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/testing/'))
          .flatMap(importsOf)
          .map((specifier) => specifier.split('/')[1])
          .filter((other) => other !== lib && libs.includes(other)),
      ),
    ]),
  );

  it('has no import cycle between libs', () => {
    const cycles: string[] = [];
    const visit = (lib: string, path: string[]) => {
      if (path.includes(lib)) return void cycles.push([...path.slice(path.indexOf(lib)), lib].join(' → '));
      for (const next of libEdges.get(lib) ?? []) visit(next, [...path, lib]);
    };
    for (const lib of libs) visit(lib, []);
    expect(cycles).toEqual([]);
  });

  /** The shared libraries, lowest first; each imports only from the layers below it, and the contexts build on all of them. */
  const LAYERS = [['kernel'], ['eventstore', 'readstore'], ['observability'], ['cells'], ['runtime'], ['http']];

  it.each(LAYERS.flat())('keeps %s above the layers it imports', (lib) => {
    const layerOf = (name: string) => LAYERS.findIndex((layer) => layer.includes(name));
    const upward = [...(libEdges.get(lib) ?? [])].filter((other) => layerOf(other) === -1 || layerOf(other) >= layerOf(lib));
    expect(upward).toEqual([]);
  });

  it('registers every context library, by its name, in the one list of contexts', () => {
    const contextLibraries = libs.filter((lib) => !LAYERS.flat().includes(lib));
    expect([...CONTEXTS].sort()).toEqual(contextLibraries.sort());
  });

  it('lists every library, and every app, as a project of the monorepo (nest-cli.json)', () => {
    const { projects } = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as { projects: Record<string, { type: string; root: string }> };
    const listed = (type: string) => Object.entries(projects).filter(([, project]) => project.type === type);
    expect(listed('library').map(([name, project]) => [name, project.root]).sort()).toEqual(libs.map((lib) => [lib, `libs/${lib}`]).sort());
    expect(listed('application').map(([name]) => name).sort()).toEqual(readdirSync(join(ROOT, 'apps')).filter((name) => statSync(join(ROOT, 'apps', name)).isDirectory()).sort());
  });

  /** Values two declarations share: each a registration mistake, since the reference and the event catalogue show one of each. */
  const repeated = <T>(values: readonly T[]): T[] => values.filter((value, index) => values.indexOf(value) !== index);

  it.each(CONTEXT_MANIFESTS.map((context) => [context.name, context]))('has %s declare its sections of the API reference', (_name, context) => {
    expect(context.apiSections.length).toBeGreaterThan(0);
    expect(context.apiSections.filter((section) => !section.name.trim() || !section.description.trim() || !Number.isInteger(section.order))).toEqual([]);
  });

  it('gives every section of the reference its own name and place, across the contexts and the API’s own', () => {
    const sections = [...CONTEXT_MANIFESTS.flatMap((context) => context.apiSections), ...EDGE_API_SECTIONS];
    expect(repeated(sections.map((section) => section.name))).toEqual([]);
    expect(repeated(sections.map((section) => section.order))).toEqual([]);
  });

  it('has every public event type declared once, by one context, as `category.name`', () => {
    const types = CONTEXT_MANIFESTS.flatMap(publicEventTypesOf);
    expect(types.length).toBeGreaterThan(0);
    expect(repeated(types)).toEqual([]);
    expect(types.filter((type) => !/^[a-z_]+\.[a-z_.]+$/.test(type))).toEqual([]);
  });

  it('keeps the API app out of the worker app', () => {
    const offenders = filesUnder(join(ROOT, 'apps', 'api'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map(([, specifier]) => [relative(ROOT, file), specifier]))
      .filter(([, specifier]) => specifier.includes('worker/src'))
      .map(([file, specifier]) => `${file}: ${specifier}`);
    expect(offenders).toEqual([]);
  });

  it('sends commands with Commands only: no file outside the runtime declares a Nest command or command handler', () => {
    const nestCommand = /@CommandHandler\(|import \{[^}]*\bCommand\b[^}]*\} from '@nestjs\/cqrs'/;
    const offenders = [...filesUnder(join(ROOT, 'libs')), ...filesUnder(join(ROOT, 'apps')), ...filesUnder(join(ROOT, 'test')), ...filesUnder(join(ROOT, 'bench'))]
      .filter((file) => !file.startsWith(join(ROOT, 'libs', 'runtime', 'src', 'commands') + '/'))
      .filter((file) => nestCommand.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('reads the time only through the Clock', () => {
    const offenders = [...filesUnder(join(ROOT, 'libs')), ...filesUnder(join(ROOT, 'apps'))]
      .filter((file) => !file.endsWith('.spec.ts') && !file.endsWith('clock.ts'))
      .filter((file) => /Date\.now\(\)|new Date\(\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
