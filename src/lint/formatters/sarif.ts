import { createRequire } from 'node:module';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as sarif from 'sarif';
import type { Diagnostic, SourceFile } from '../../model/index.js';
import { RULES } from '../rules/index.js';
import { docsUrl } from '../docs.js';
import { lineText, rel, type FormatInput } from './common.js';
import { effectOf } from '../severity.js';
import { jsonSafe } from '../printable.js';

// node:crypto is loaded when a fingerprint is asked for (sarif output, baselines): loading it was 2-4 ms of every lint's start.
let loadedCrypto: typeof import('node:crypto') | null = null;
const crypto = (): typeof import('node:crypto') =>
  (loadedCrypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

const LEVEL: Record<Diagnostic['severity'], sarif.ReportingConfiguration.level> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/**
 * A fingerprint that survives edits elsewhere in the file: rule, file, the
 * whitespace-normalised text of the line, and which occurrence of that it is.
 */
export function fingerprint(d: Diagnostic, relPath: string, lineContent: string, occurrence: number): string {
  return crypto()
    .createHash('sha256')
    .update(`${d.ruleId}\0${relPath}\0${lineContent.trim().replace(/\s+/g, ' ')}\0${occurrence}`)
    .digest('hex')
    .slice(0, 32);
}

/** Lines longer than this are fingerprinted by their digest: a 3 MB one-line file is hashed once, not once per finding. */
const LONG_LINE = 1024;
const lineKeys = new WeakMap<SourceFile, Map<number, string>>();

/**
 * The text of a line as fingerprints see it, computed once per line: trimmed, its whitespace runs one
 * space, and past LONG_LINE characters its digest (10,000 findings on one 3 MB line hashed 30 GB).
 */
export function fingerprintLine(source: SourceFile | undefined, line: number): string {
  if (!source) return '';
  let keys = lineKeys.get(source);
  if (!keys) lineKeys.set(source, (keys = new Map()));
  let key = keys.get(line);
  if (key === undefined) {
    const text = (lineText(source, line) ?? '').trim().replace(/\s+/g, ' ');
    key = text.length > LONG_LINE ? `sha256:${crypto().createHash('sha256').update(text).digest('hex')}` : text;
    keys.set(line, key);
  }
  return key;
}

/**
 * A file as SARIF names it: a URI relative to %SRCROOT% (each segment
 * percent-encoded, so spaces and "#" survive), or an absolute file URI for a
 * file outside the repository, which a relative "../" reference cannot name.
 */
function artifactOf(repoRoot: string, file: string): sarif.ArtifactLocation {
  const path = relative(repoRoot, file).split(sep).join('/');
  if (path === '' || path.startsWith('../') || isAbsolute(path)) return { uri: pathToFileURL(file).href };
  return { uri: path.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/** SARIF 2.1.0 as GitHub code scanning accepts it. */
export function formatSarif(input: FormatInput): string {
  // Every rule is listed, so code scanning knows their metadata even before they fire.
  const rules = RULES.map((r): sarif.ReportingDescriptor => ({
    id: r.meta.id,
    name: r.meta.id.replace(/(^|-)([a-z])/g, (_m, _d, ch: string) => ch.toUpperCase()),
    shortDescription: { text: r.meta.description },
    fullDescription: { text: r.meta.description },
    helpUri: docsUrl(r.meta.id),
    help: {
      text: `${r.meta.description} See ${docsUrl(r.meta.id)}`,
      markdown: `${r.meta.description}\n\n[Documentation](${docsUrl(r.meta.id)})`,
    },
    defaultConfiguration: { level: LEVEL[r.meta.defaultSeverity] },
    properties: {
      // The benchmark controls as tags, so code scanning can filter alerts by CIS or STIG control.
      tags: [
        r.meta.category,
        ...(r.meta.category === 'security' ? ['security'] : []),
        ...(r.meta.benchmarks ?? []),
      ].filter((t, i, a) => a.indexOf(t) === i),
      ...(r.meta.securitySeverity !== undefined ? { 'security-severity': r.meta.securitySeverity.toFixed(1) } : {}),
      precision: 'high',
    },
  }));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const seen = new Map<string, number>();
  const results = input.diagnostics.map((d): sarif.Result => {
    const path = rel(input.repoRoot, d.span.file).split('\\').join('/');
    const content = fingerprintLine(input.files.get(d.span.file), d.span.line);
    const key = `${d.ruleId}\0${path}\0${content}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return {
      ruleId: d.ruleId,
      ...(index.has(d.ruleId) ? { ruleIndex: index.get(d.ruleId)! } : {}),
      level: LEVEL[d.severity],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: artifactOf(input.repoRoot, d.span.file),
            region: {
              startLine: d.span.line,
              startColumn: d.span.column,
              endLine: d.span.endLine,
              endColumn: d.span.endColumn,
            },
          },
        },
      ],
      partialFingerprints: { primaryLocationLineHash: fingerprint(d, path, content, occurrence) },
      // What Tomcat does with it (refuses, misbehaves, ignores, weakens, notes, tollgate): the finding's own, a variant's or the rule's.
      properties: { effect: effectOf(d) ?? 'tollgate' },
      ...(d.related?.length
        ? {
            relatedLocations: d.related.map((r, i): sarif.Location => ({
              id: i,
              message: { text: r.message },
              physicalLocation: {
                artifactLocation: artifactOf(input.repoRoot, r.span.file),
                region: {
                  startLine: r.span.line,
                  startColumn: r.span.column,
                  endLine: r.span.endLine,
                  endColumn: r.span.endColumn,
                },
              },
            })),
          }
        : {}),
    };
  });
  const log: sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'tollgate', informationUri: docsUrl(null), semanticVersion: input.version, rules } },
        // Our columns count UTF-16 code units; said explicitly, as consumers disagree on the default.
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(input.repoRoot).href.replace(/\/?$/, '/') } },
        results,
      },
    ],
  };
  return jsonSafe(JSON.stringify(log, null, 2)) + '\n';
}
