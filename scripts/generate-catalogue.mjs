// Regenerates src/catalogue/tomcat-<version>.json from the installed Tomcat jars with
// scripts/TomcatCatalogue.java: Debian's tomcat10 (CATALINA_HOME, /usr/share/tomcat10) for 10.1 and
// libtomcat9-java (/usr/share/java/tomcat9-*-9.0.70.jar) for 9.0. Test tooling: nothing here ships.
//
//   node scripts/generate-catalogue.mjs            writes both files
//   node scripts/generate-catalogue.mjs --out DIR  writes them into DIR instead (the test compares)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const HOME10 = process.env.CATALINA_HOME ?? '/usr/share/tomcat10';
const JAVA_DIR = '/usr/share/java';

/** Tomcat's own jars, without the translations and the Ant tasks (which need Ant on the class path). */
const usable = (f) => f.endsWith('.jar') && !/i18n|catalina-ant/.test(f);

export const SOURCES = {
  10.1: {
    package: 'tomcat10',
    jars: () => {
      const lib = join(HOME10, 'lib');
      if (!existsSync(join(lib, 'catalina.jar'))) return null;
      return [
        ...readdirSync(lib)
          .filter(usable)
          .sort()
          .map((f) => join(lib, f)),
        join(HOME10, 'bin', 'bootstrap.jar'),
        join(HOME10, 'bin', 'tomcat-juli.jar'),
      ];
    },
  },
  '9.0': {
    package: 'libtomcat9-java',
    jars: () => {
      if (!existsSync(JAVA_DIR)) return null;
      const jars = readdirSync(JAVA_DIR)
        .filter((f) => /^tomcat9-.*-9\.0\.70\.jar$/.test(f) && usable(f))
        .sort()
        .map((f) => join(JAVA_DIR, f));
      return jars.some((j) => j.includes('catalina-9')) ? jars : null;
    },
  },
};

/** The catalogue JSON of one version, or an error naming the missing package. */
export function generate(version) {
  const src = SOURCES[version];
  const jars = src.jars();
  if (!jars) throw new Error(`Tomcat ${version}'s jars are not installed: apt-get install -y ${src.package}`);
  const r = spawnSync('java', ['-cp', jars.join(':'), join(ROOT, 'scripts', 'TomcatCatalogue.java'), ...jars], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`java could not run (${r.error.message}): apt-get install -y default-jdk-headless`);
  if (r.status !== 0) throw new Error(`scripts/TomcatCatalogue.java failed for ${version}:\n${r.stderr}`);
  return r.stdout;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--out');
  const dir = at > 0 ? process.argv[at + 1] : join(ROOT, 'src', 'catalogue');
  for (const v of Object.keys(SOURCES)) {
    const json = generate(v);
    writeFileSync(join(dir, `tomcat-${v}.json`), json);
    console.log(`${v}: ${JSON.parse(json).version}, ${json.length} bytes`);
  }
}
