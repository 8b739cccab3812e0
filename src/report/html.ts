/**
 * The report as one self-contained HTML page: inline CSS and script, no network. Everything but the
 * URL box is plain HTML, readable with JavaScript off and in print. The URL box runs the runtime's own
 * chain selector (src/protocol/chain-selector.ts, built for the browser by scripts/bundle.mjs), so it
 * gives the chain `tollgate chain --path` gives.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReportContext, ReportData, ReportFilter } from './data.js';
import { printable } from '../lint/printable.js';

/** HTML-escaped, after printable(): a file's control characters and bidi overrides are shown, never obeyed. */
const esc = (s: string): string =>
  printable(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const at = (p: { file: string; line: number; column: number } | null): string =>
  p ? `${p.file}:${p.line}:${p.column}` : '';
const anchor = (host: string, path: string): string => `ctx-${host}-${path || 'ROOT'}`.replace(/[^A-Za-z0-9_-]/g, '_');

/** The chain selector for the browser, from the build (dist/bundle/assets), wherever this module runs from. */
function selectorScript(): string {
  for (const rel of [
    './assets/chain-selector.js',
    '../assets/chain-selector.js',
    '../../dist/bundle/assets/chain-selector.js',
    '../bundle/assets/chain-selector.js',
  ]) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  throw new Error(
    'tollgate report: the browser build of the chain selector (dist/bundle/assets/chain-selector.js) is missing: run npm run build',
  );
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return (
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')
      // Bidirectional controls from a user's file stay escapes in the page's bytes (docs/security.md).
      .replace(
        /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0080-\u009f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      )
  );
}

/** Filters declared outside the application (conf/web.xml, web.xml.default) are shown once, in their own section. */
const isShared = (f: ReportFilter): boolean => f.origin === 'global' || f.origin === 'host';
const sharedId = (f: ReportFilter): string =>
  `f-${f.declared.file}-${f.declared.line}-${f.name}`.replace(/[^A-Za-z0-9_-]/g, '_');

function filterDetails(f: ReportFilter, id?: string): string {
  // The parameters the descriptor sets, then a link to the filter class's defaults, shown once per class:
  // listing every default under every filter made the page of a 1,000-application base several megabytes.
  const set = f.params.filter((p) => !p.isDefault);
  const defaults = f.params.length - set.length;
  const params = set
    .map((p) => `<li><code>${esc(p.name)}</code> = <code>${esc(p.value === '' ? '(empty)' : p.value)}</code></li>`)
    .join('');
  return `<details class="filter"${id ? ` id="${id}"` : ''}><summary><span class="fname">${esc(f.name)}</span> <span class="fclass">${esc(f.simpleName)}</span> <span class="origin origin-${esc(f.origin)}">${esc(f.origin)}</span></summary>
<p><code>${esc(f.className)}</code>, declared at <code>${esc(at(f.declared))}</code>.${f.answers ? ` Can answer itself: ${esc(f.answers)}.` : ''}</p>
${params ? `<ul class="params" aria-label="init-params set">${params}</ul>` : '<p>No init-param set.</p>'}${defaults ? `<p class="meta">${defaults} more at <a href="#${defaultsId(f.simpleName)}">Tomcat's defaults</a>.</p>` : ''}</details>`;
}

const defaultsId = (simpleName: string): string => `defaults-${simpleName}`.replace(/[^A-Za-z0-9_-]/g, '_');

/** Each filter class's defaults once, marked as defaults. */
function defaultsSection(data: ReportData): string {
  const byClass = new Map<string, ReportFilter['params']>();
  for (const h of data.hosts) {
    for (const c of h.contexts) {
      for (const f of c.filters) {
        const defaults = f.params.filter((p) => p.isDefault);
        const known = byClass.get(f.simpleName);
        // Keep the longest list seen: a filter that sets a parameter lacks that default.
        if (defaults.length && (!known || defaults.length > known.length)) byClass.set(f.simpleName, defaults);
      }
    }
  }
  if (byClass.size === 0) return '';
  const blocks = [...byClass]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([cls, params]) =>
        `<section id="${defaultsId(cls)}"><h3>${esc(cls)}</h3><ul class="params">${params.map((p) => `<li class="default"><code>${esc(p.name)}</code> = <code>${esc(p.value === '' ? '(empty)' : p.value)}</code> <small>default</small></li>`).join('')}</ul></section>`,
    );
  return `<h2 id="defaults">Tomcat's defaults of the filters used</h2><p class="meta">What a filter runs with for every parameter its declaration does not set.</p>${blocks.join('\n')}`;
}

function flow(c: ReportContext, indexes: number[]): string {
  if (indexes.length === 0) return '<span class="empty">no filter</span>';
  return `<ol class="flow">${indexes.map((i) => `<li>${esc(c.filters[i]?.name ?? '?')} <small>${esc(c.filters[i]?.simpleName ?? '')}</small></li>`).join('')}</ol>`;
}

/** A filter definition's content (class and what it sets): applications that copy one definition show it once. */
const signature = (f: ReportFilter): string =>
  JSON.stringify([f.name, f.className, f.params.filter((p) => !p.isDefault).map((p) => [p.name, p.value])]);
const commonId = (sig: string, f: ReportFilter): string =>
  `c-${f.simpleName}-${f.name}-${hash(sig)}`.replace(/[^A-Za-z0-9_-]/g, '_');

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

function filterEntry(f: ReportFilter, common: ReadonlySet<string>): string {
  const ref = (id: string) =>
    `<p class="filter-ref"><a href="#${id}">${esc(f.name)}</a> <span class="fclass">${esc(f.simpleName)}</span> <span class="origin origin-${esc(f.origin)}">${esc(f.origin)}</span> <small><code>${esc(at(f.declared))}</code></small></p>`;
  if (isShared(f)) return ref(sharedId(f));
  const sig = signature(f);
  return common.has(sig) ? ref(commonId(sig, f)) : filterDetails(f);
}

function contextSection(host: string, c: ReportContext, common: ReadonlySet<string>): string {
  const state =
    c.state === 'starts'
      ? c.unrunnable
        ? '<span class="badge warn">started by Tomcat, not runnable on Node</span>'
        : '<span class="badge ok">started</span>'
      : '<span class="badge bad">refused</span>';
  const reasons = [
    ...c.reasons.map((r) => `<li><code>${esc(at(r.place))}</code> ${esc(r.message)}</li>`),
    ...(c.unrunnable ? [`<li>${esc(c.unrunnable)}</li>`] : []),
  ].join('');
  const mappings = c.mappings
    .map(
      (m) =>
        `<tr><td>${esc(m.filter)}</td><td>${m.urlPatterns.map((u) => `<code>${esc(u === '' ? '""' : u)}</code>`).join(' ')}${m.servletNames.map((s) => ` servlet <code>${esc(s)}</code>`).join('')}</td><td>${esc(m.dispatchers.join(', ') || 'REQUEST')}</td><td><code>${esc(at(m.place))}</code></td></tr>`,
    )
    .join('');
  const chains = c.chains
    .map(
      (ch) =>
        `<tr><td><code>${esc(ch.pattern === '' ? '""' : ch.pattern)}</code> <small>(${esc(ch.samplePath)})</small></td><td>${esc(ch.dispatcher)}</td><td>${flow(c, ch.filters)}</td><td>${ch.servlet ? `<code>${esc(ch.servlet)}</code>` : '<span class="empty">none: 404</span>'}</td></tr>`,
    )
    .join('');
  return `<section class="context" id="${anchor(host, c.path)}" aria-labelledby="${anchor(host, c.path)}-h">
<h3 id="${anchor(host, c.path)}-h">${esc(host)}${esc(c.path || '/')} ${state}</h3>
<p class="meta">docBase <code>${esc(c.docBase)}</code>${c.sources.length ? `; descriptors ${c.sources.map((s) => `<code>${esc(s)}</code>`).join(', ')}` : ''}</p>
${reasons ? `<ul class="reasons">${reasons}</ul>` : ''}
${chains ? `<div class="scroll"><table class="chains"><caption>Chain per URL pattern, in the order the filters run</caption><thead><tr><th scope="col">pattern</th><th scope="col">dispatcher</th><th scope="col">filters</th><th scope="col">servlet</th></tr></thead><tbody>${chains}</tbody></table></div>` : '<p>No filter mappings.</p>'}
${mappings ? `<details><summary>Filter mappings in Tomcat's final order (${c.mappings.length})</summary><div class="scroll"><table><thead><tr><th scope="col">filter</th><th scope="col">matches</th><th scope="col">dispatchers</th><th scope="col">where</th></tr></thead><tbody>${mappings}</tbody></table></div></details>` : ''}
${c.filters.length ? `<h4>Filters</h4>${c.filters.map((f) => filterEntry(f, common)).join('\n')}` : ''}
</section>`;
}

const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--accent:#0969da}
*{box-sizing:border-box}body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0}
header,main{max-width:1100px;margin:0 auto;padding:0 16px}header{padding-top:16px;border-bottom:1px solid var(--line)}
h1{font-size:1.5em;margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid var(--line)}h3{margin:1.2em 0 .3em}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}small,.meta{color:var(--muted)}
nav ul{display:flex;flex-wrap:wrap;gap:12px;list-style:none;padding:0}a{color:var(--accent)}a:focus,summary:focus,input:focus,select:focus,button:focus{outline:3px solid #fb8f44;outline-offset:2px}
.badge{font-size:.75em;padding:2px 8px;border-radius:10px;color:#fff;vertical-align:middle}.ok{background:var(--ok)}.bad{background:var(--bad)}.warn{background:var(--warn)}
.counts span{margin-right:12px}.tree,.tree ul{list-style:none;padding-left:1.2em}.tree li{border-left:1px solid var(--line);padding-left:.6em;margin:.2em 0}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}caption{text-align:left;color:var(--muted)}
section.context,section.file{content-visibility:auto;contain-intrinsic-size:auto 500px}
.scroll{overflow-x:auto}ul.params{list-style:none;padding-left:.5em;margin:.3em 0}ul.params li.default{color:var(--muted);font-style:italic}p.filter-ref{margin:.3em 0}
ol.flow{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:0}ol.flow li{border:1px solid var(--line);border-radius:6px;padding:2px 8px;background:#f6f8fa}
ol.flow li+li::before{content:"\\2192";margin-right:6px;color:var(--muted)}.empty{color:var(--muted)}
.origin{font-size:.75em;border:1px solid var(--line);border-radius:8px;padding:0 6px}.origin-global{background:#ddf4ff}.origin-app{background:#dafbe1}
details.filter{margin:.3em 0;border:1px solid var(--line);border-radius:6px;padding:4px 8px}summary{cursor:pointer}
.sev-error{color:var(--bad)}.sev-warning{color:var(--warn)}.sev-info{color:var(--accent)}
pre.frame{background:#f6f8fa;border:1px solid var(--line);padding:6px;overflow-x:auto;font:13px ui-monospace,monospace}pre.frame mark{background:#ffebe9}
#urlbox{border:2px solid var(--accent);border-radius:8px;padding:12px;margin:1em 0}#urlbox form{display:flex;flex-wrap:wrap;gap:8px;align-items:end}
#urlbox label{display:flex;flex-direction:column;font-size:.85em}#urlbox input,#urlbox select{font:inherit;padding:4px}#urlbox input[name=path]{min-width:18em}
#answer{margin-top:8px}.status-pass{color:var(--ok)}.status-fail{color:var(--bad)}.status-manual{color:var(--warn)}
@media (max-width:640px){body{font-size:14px}th,td{padding:3px 4px}}
@media print{nav,#urlbox{display:none}details{display:block}details>summary{list-style:none}details:not([open])>*:not(summary){display:block}a{color:inherit}}
`;

/** The URL box: routes like Tomcat (host by name or alias, else the default host; the longest context path), then the runtime's selector. */
const SCRIPT = `
(function(){
var data=JSON.parse(document.getElementById('report-data').textContent);
var form=document.getElementById('urlform'),out=document.getElementById('answer');
function esc(s){return String(s).replace(/[&<>"']/g,function(c){return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c];});}
function hostFor(name){name=(name||'').toLowerCase();var d=null;for(var i=0;i<data.hosts.length;i++){var h=data.hosts[i];if(h.isDefault)d=h;if(h.name.toLowerCase()===name||h.aliases.some(function(a){return a.toLowerCase()===name;}))return h;}return d;}
function contextFor(h,uri){var best=null;h.contexts.forEach(function(c){if(c.state!=='starts'||c.unrunnable)return;var p=c.path;if(p===''||uri===p||uri.indexOf(p+'/')===0){if(!best||p.length>best.path.length)best=c;}});return best;}
function addressVerdict(f,addr){var r=f.addressRule;if(!r)return null;var m=function(x){return x&&new RegExp(x[0],x[1]).test(addr);};if(m(r.deny))return r.denyStatus;if(m(r.allow))return null;if(r.deny&&!r.allow)return null;return r.denyStatus;}
form.addEventListener('submit',function(e){e.preventDefault();
 var uri=form.elements.path.value||'/';if(uri.charAt(0)!=='/')uri='/'+uri;var q=uri.indexOf('?');if(q>=0)uri=uri.slice(0,q);
 var h=hostFor(form.elements.host.value);if(!h){out.innerHTML='<p>No host answers: Tomcat has no default host here.</p>';return;}
 var c=contextFor(h,uri);if(!c){out.innerHTML='<p><strong>404</strong> from '+esc(h.name)+': no started context serves <code>'+esc(uri)+'</code>.</p>';return;}
 var inCtx=uri.slice(c.path.length)||'/';var files=new Set(c.files);
 var sel=TollgateSelector.createChainSelector(c.table,{exists:function(p){return files.has(p);}});
 var s=sel(inCtx,form.elements.dispatcher.value);
 var html='<p>Host <strong>'+esc(h.name)+'</strong>, context <a href="#'+esc(c.anchor)+'">'+esc(c.path||'/')+'</a>, path in context <code>'+esc(inCtx)+'</code>.</p>';
 if(!s.servlet){out.innerHTML=html+'<p><strong>404</strong>: no servlet is mapped to this path, so Tomcat runs no filter.</p>';return;}
 var first=null;var items=s.chain.map(function(i){var name=c.tableFilters[i];var f=c.filters.filter(function(x){return x.name===name;})[0];
  var status=f?addressVerdict(f,form.elements.addr.value):null;if(status&&!first)first={f:f,status:status};
  return '<li>'+esc(name)+' <small>'+esc(f?f.simpleName:'')+'</small>'+(status?' <span class="badge bad">'+status+'</span>':'')+'</li>';});
 html+=items.length?'<ol class="flow" aria-label="chain">'+items.join('')+'</ol>':'<p class="empty">No filter runs.</p>';
 html+='<p>Then the servlet <code>'+esc(s.servlet.servletName)+'</code> (matched by <code>'+esc(s.servlet.pattern)+'</code>).</p>';
 html+=first?'<p id="first-answer"><strong>'+esc(first.f.name)+'</strong> ('+esc(first.f.simpleName)+') answers first: <strong>'+first.status+'</strong> for client '+esc(form.elements.addr.value)+'.</p>':'<p id="first-answer">No filter refuses this request by address; filters that can answer themselves say so in their details.</p>';
 out.innerHTML=html;});
})();
`;

/** A finding's effect (lint's effectOf) in words, beside its rule id. */
const EFFECT_WORDS: Record<string, string> = {
  refuses: 'Tomcat refuses to start it',
  misbehaves: 'Tomcat starts and misbehaves',
  ignores: 'Tomcat ignores it',
  weakens: 'weakens security',
  notes: 'worth knowing',
  tollgate: "about tollgate's reading",
};

export function renderReport(data: ReportData): string {
  const hostsTree = data.hosts
    .map(
      (h) =>
        `<li><strong>${esc(h.name)}</strong>${h.isDefault ? ' <small>(default host)</small>' : ''}${h.aliases.length ? ` <small>aliases ${h.aliases.map(esc).join(', ')}</small>` : ''} <small>appBase ${esc(h.appBase)}</small><ul>${h.contexts
          .map(
            (c) =>
              `<li><a href="#${anchor(h.name, c.path)}">${esc(c.path || '/')}</a> ${c.state === 'starts' ? (c.unrunnable ? '<span class="badge warn">not on Node</span>' : '<span class="badge ok">started</span>') : `<span class="badge bad">refused</span> <small>${esc(c.reasons[0]?.message.slice(0, 160) ?? '')}</small>`}</li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const findings = data.findings
    .map(
      (f) =>
        `<section class="file"><h3><code>${esc(f.file)}</code> <small>(${f.items.length + f.more})</small></h3>${f.items
          .map((d) => {
            const frame = d.frame
              .map((l) =>
                l.line === d.place.line
                  ? `${String(l.line).padStart(5)} | ${esc(l.text.slice(0, d.column - 1))}<mark>${esc(l.text.slice(d.column - 1, d.endColumn - 1))}</mark>${esc(l.text.slice(d.endColumn - 1))}`
                  : `${String(l.line).padStart(5)} | ${esc(l.text)}`,
              )
              .join('\n');
            return `<div class="finding"><p><span class="sev-${esc(d.severity)}">${esc(d.severity)}</span> <code>${esc(at(d.place))}</code> ${esc(d.message)} <small>${esc(d.ruleId)} · <span class="effect">${esc(EFFECT_WORDS[d.effect] ?? d.effect)}</span></small></p><pre class="frame">${frame}</pre></div>`;
          })
          .join(
            '',
          )}${f.more ? `<p class="more">${f.more} more finding${f.more === 1 ? '' : 's'} in this file not shown: <code>tollgate lint</code> lists them all.</p>` : ''}</section>`,
    )
    .join('');
  const audit = data.audit
    ? `<h2 id="audit">Audit: ${esc(data.audit.benchmark)}</h2><div class="scroll"><table><thead><tr><th scope="col">control</th><th scope="col">title</th><th scope="col">status</th><th scope="col">where</th></tr></thead><tbody>${data.audit.controls
        .map(
          (c) =>
            `<tr><td>${esc(c.control)}</td><td>${esc(c.title)}</td><td class="status-${esc(c.status)}">${esc(c.status)}</td><td>${c.findings.map((p) => `<code>${esc(at(p))}</code>`).join('<br>')}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '';
  const client = {
    hosts: data.hosts.map((h) => ({
      name: h.name,
      aliases: h.aliases,
      isDefault: h.isDefault,
      contexts: h.contexts.map((c) => ({
        path: c.path,
        state: c.state,
        unrunnable: c.unrunnable,
        table: c.table,
        tableFilters: c.tableFilters,
        files: c.files,
        anchor: anchor(h.name, c.path),
        filters: c.filters.map((f) => ({
          name: f.name,
          simpleName: f.simpleName,
          ...(f.addressRule ? { addressRule: f.addressRule } : {}),
        })),
      })),
    })),
  };
  const defaultHost = data.hosts.find((h) => h.isDefault)?.name ?? data.hosts[0]?.name ?? 'localhost';
  const sharedById = new Map<string, string>();
  for (const h of data.hosts)
    for (const c of h.contexts)
      for (const f of c.filters)
        if (isShared(f) && !sharedById.has(sharedId(f))) sharedById.set(sharedId(f), filterDetails(f, sharedId(f)));
  const shared = [...sharedById.values()];
  // Application filters defined identically in several applications: their details once.
  const uses = new Map<string, ReportFilter[]>();
  for (const h of data.hosts)
    for (const c of h.contexts)
      for (const f of c.filters) if (!isShared(f)) uses.set(signature(f), [...(uses.get(signature(f)) ?? []), f]);
  const common = new Set([...uses].filter(([, fs]) => fs.length > 1).map(([sig]) => sig));
  const commonSection = common.size
    ? `<h2 id="common">Filter definitions several applications share</h2><p class="meta">The same name, class and parameters in each; where each is declared is listed with the application.</p>${[...common].map((sig) => filterDetails(uses.get(sig)![0]!, commonId(sig, uses.get(sig)![0]!)).replace(/, declared at <code>[^<]*<\/code>/, `, declared in ${uses.get(sig)!.length} applications`)).join('\n')}`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(data.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${esc(data.title)}</h1>
<p class="meta">Generated ${esc(data.generatedAt)} by tollgate ${esc(data.version)} from <code>${esc(data.base)}</code>. Server: ${data.server.state === 'starts' ? '<span class="badge ok">starts</span>' : `<span class="badge bad">refused</span> ${data.server.reasons.map((r) => `<code>${esc(at(r.place))}</code> ${esc(r.message)}`).join('; ')}`}</p>
<p class="counts"><span class="sev-error">${data.counts.error} errors</span><span class="sev-warning">${data.counts.warning} warnings</span><span class="sev-info">${data.counts.info} infos</span></p>
<nav aria-label="Sections"><ul><li><a href="#map">Hosts and contexts</a></li><li><a href="#urlbox">Try a URL</a></li><li><a href="#contexts">Chains</a></li><li><a href="#shared">Shared filters</a></li><li><a href="#findings">Findings</a></li>${data.audit ? '<li><a href="#audit">Audit</a></li>' : ''}</ul></nav>
</header>
<main>
<h2 id="map">Hosts and contexts</h2>
<ul class="tree">${hostsTree}</ul>
<section id="urlbox" aria-labelledby="urlbox-h">
<h2 id="urlbox-h">Try a URL</h2>
<form id="urlform">
<label>Host <select name="host">${data.hosts.map((h) => `<option${h.isDefault ? ' selected' : ''}>${esc(h.name)}</option>`).join('')}</select></label>
<label>Path <input name="path" value="/" autocomplete="off" aria-describedby="urlhelp"></label>
<label>Dispatcher <select name="dispatcher"><option>REQUEST</option><option>FORWARD</option><option>INCLUDE</option><option>ERROR</option><option>ASYNC</option></select></label>
<label>Client address <input name="addr" value="127.0.0.1" autocomplete="off"></label>
<button type="submit">Show chain</button>
</form>
<p id="urlhelp" class="meta">The filters that run for a request to ${esc(defaultHost)} (or the host chosen), in order, as <code>tollgate chain --path</code> gives them, and which filter would refuse it first by the client address. Needs JavaScript.</p>
<div id="answer" aria-live="polite"></div>
</section>
<h2 id="contexts">Chains per context</h2>
${data.hosts.map((h) => h.contexts.map((c) => contextSection(h.name, c, common)).join('\n')).join('\n')}
${commonSection}
${defaultsSection(data)}
${shared.length ? `<h2 id="shared">Filters of conf/web.xml and web.xml.default</h2><p class="meta">Merged into every context that does not define a filter of the same name.</p>${shared.join('\n')}` : ''}
<h2 id="findings">Findings</h2>
${findings || '<p>No findings.</p>'}
${audit}
</main>
<script type="application/json" id="report-data">${scriptJson(client)}</script>
<script>${selectorScript()}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
