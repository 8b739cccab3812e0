import { benchmarkLabels, rel, type FormatInput } from './common.js';
import { printable } from '../printable.js';

/** Workflow-command escaping, after printable(): a file's ESC sequences or bidi overrides never reach the log. */
function escapeData(s: string): string {
  return printable(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: one annotation per problem, shown on the pull request diff. */
export function formatGithub(input: FormatInput): string {
  return input.diagnostics
    .map((d) => {
      const level = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
      const s = d.span;
      const props = [
        `file=${escapeProperty(rel(input.repoRoot, s.file))}`,
        `line=${s.line}`,
        `col=${s.column}`,
        `endLine=${s.endLine}`,
        `endColumn=${s.endColumn}`,
        `title=${escapeProperty(benchmarkLabels(d) ? `${d.ruleId} (${benchmarkLabels(d)})` : d.ruleId)}`,
      ].join(',');
      return `::${level} ${props}::${escapeData(d.message)}\n`;
    })
    .join('');
}
