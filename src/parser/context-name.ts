/**
 * Tomcat's naming of contexts from file and directory names (ContextName):
 * `ROOT` is the root context, `#` stands for `/`, and `##` starts a version.
 */
export function parseContextName(baseName: string): { path: string; version: string; name: string } {
  let base = baseName;
  let version = '';
  const v = base.indexOf('##');
  if (v >= 0) {
    version = base.slice(v + 2);
    base = base.slice(0, v);
  }
  const path = base === 'ROOT' || base === '' ? '' : '/' + base.replace(/#/g, '/');
  return { path, version, name: baseName };
}

/** The base name Tomcat uses for a context path and version (the inverse of parseContextName). */
export function contextBaseName(path: string, version = ''): string {
  const base = path === '' || path === '/' ? 'ROOT' : path.replace(/^\//, '').replace(/\//g, '#');
  return version ? `${base}##${version}` : base;
}
