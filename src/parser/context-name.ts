/**
 * Tomcat's naming of contexts from file and directory names (ContextName):
 * `ROOT` is the root context, `#` stands for `/`, and `##` starts a version.
 * `name` is the base name Tomcat uses (an empty or `##`-leading name gets `ROOT` in front).
 */
export function parseContextName(baseName: string): { path: string; version: string; name: string } {
  const name = baseName === '' || baseName.startsWith('##') ? 'ROOT' + baseName : baseName;
  let base = name;
  let version = '';
  const v = base.indexOf('##');
  if (v >= 0) {
    version = base.slice(v + 2);
    base = base.slice(0, v);
  }
  const path = base === 'ROOT' ? '' : '/' + base.replace(/#/g, '/');
  return { path, version, name };
}

/** The base name Tomcat uses for a context path and version (the inverse of parseContextName). */
export function contextBaseName(path: string, version = ''): string {
  const base = path === '' || path === '/' ? 'ROOT' : path.replace(/^\//, '').replace(/\//g, '#');
  return version ? `${base}##${version}` : base;
}

/**
 * Whether Tomcat accepts a context path made from a file name: already normalised
 * (no `//`, `/./`, `/../`, trailing `/.` or `/..`, backslash or NUL). Tomcat ignores
 * a descriptor, WAR or directory whose name fails this ("The ... name is invalid").
 */
export function isContextPathValid(path: string): boolean {
  if (path === '') return true;
  return path.startsWith('/') && !/\/\/|\/\.\.?(?:\/|$)|[\\\0]/.test(path);
}
