import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const FORBIDDEN = /from '(@nestjs\/[^']+|mongodb|better-sqlite3|@eventstore\/[^']+|express|supertest|node:http|@tally\/(eventstore|readstore|platform)[^']*)'/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const domainFolders = readdirSync(join(ROOT, 'libs'))
  .map((lib) => join(ROOT, 'libs', lib, 'src', 'domain'))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory());

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

  it('reads the time only through the Clock', () => {
    const offenders = [...filesUnder(join(ROOT, 'libs')), ...filesUnder(join(ROOT, 'apps'))]
      .filter((file) => !file.endsWith('.spec.ts') && !file.endsWith('clock.ts'))
      .filter((file) => /Date\.now\(\)|new Date\(\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
