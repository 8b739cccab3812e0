/**
 * The direct web.xml reader: builds the model while fast-xml.ts scans the document, without the
 * tree, for descriptors in the scanner's subset whose root is <web-app> or <web-fragment>. The
 * same model, diagnostics and comments as the tree reader (test/parser/direct-webxml.test.ts
 * compares them), at a fraction of the allocation.
 */
import type { Diagnostic, Located, SourceFile, Span, WebXml } from '../model/index.js';
import { scanSimple, tooDeepAt } from './fast-xml.js';
import { LineIndex } from './lines.js';
import { resolveProperties } from './properties.js';
import { deepNesting, PENDING, type RawAttribute, type XmlSink } from './tree.js';
import {
  compact,
  generationOf,
  NAMESPACES,
  newWebXml,
  prefixedElement,
  Reader,
  readElement,
  unknownNamespace,
  type Element,
  type WebXmlOptions,
} from './webxml-read.js';

/**
 * An element of the direct path below the root (levels 1 to 3, all the
 * digester rules look at). Nodes are reused from one child of the root to the
 * next and from one file to the next (parsing never nests): the model keeps
 * the strings and spans read from them, never a node.
 */
class Node implements Element {
  name = '';
  qname = '';
  start = 0;
  end = 0;
  contentStart = 0;
  contentEnd = 0;
  /**
   * The children are the first childCount entries, and the text segments the first segmentCount
   * [from, to) offset pairs: the arrays are reused without shrinking (V8 drops the storage of an
   * array whose length is set to 0, so clearing them cost an allocation per element).
   */
  readonly children: Node[] = [];
  childCount = 0;
  private readonly segments: number[] = [];
  private segmentCount = 0;
  private spanOf: Span | null = null;
  private sink: DirectSink | null = null;

  reset(sink: DirectSink, name: string, qname: string, start: number, end: number): void {
    this.sink = sink;
    this.name = name;
    this.qname = qname;
    this.start = start;
    this.end = end;
    this.contentStart = end;
    this.contentEnd = end;
    this.childCount = 0;
    this.segmentCount = 0;
    this.spanOf = null;
  }

  get span(): Span {
    return (this.spanOf ??= this.sink!.lines.span(this.start, this.end));
  }

  /** Lets go of the file once it is read (the pool outlives it). */
  release(): void {
    this.sink = null;
    this.spanOf = null;
  }

  /** Whether the text is the whole content, in one piece: no child element, comment or entity inside. */
  isWholeContent(): boolean {
    return this.segmentCount === 2 && this.segments[0] === this.contentStart && this.segments[1] === this.contentEnd;
  }

  /** The character data, as the tree concatenates it. */
  get text(): string {
    const seg = this.segments;
    const n = this.segmentCount;
    if (n === 0) return '';
    const raw = this.sink!.raw;
    let t = raw.slice(seg[0], seg[1]);
    for (let k = 2; k < n; k += 2) t += raw.slice(seg[k], seg[k + 1]);
    return t;
  }

  addChild(node: Node): void {
    this.children[this.childCount++] = node;
  }

  addText(from: number, to: number): void {
    this.segments[this.segmentCount++] = from;
    this.segments[this.segmentCount++] = to;
  }
}

/** Deepest level below the root whose elements the digester rules read (<web-app><filter><init-param><param-name>). */
const NODE_DEPTH = 3;

/** Nodes for the elements of one child of the root, shared by all files; the open node at each level 1..NODE_DEPTH. */
const POOL: Node[] = [];
const OPEN_NODES: Node[] = [];

/**
 * Builds the model while fast-xml.ts scans the document, without the tree:
 * each child of the root is read (readElement) as soon as its end tag is seen.
 */
class DirectSink implements XmlSink {
  webXml: WebXml | null = null;
  rootWarning: Diagnostic | null = null;
  readonly prefixed: Diagnostic[] = [];
  readonly modelDiagnostics: Diagnostic[] = [];
  private readonly reader: Reader;
  /** How many nodes of POOL the current child of the root uses. */
  private used = 0;

  constructor(
    readonly lines: LineIndex,
    readonly raw: string,
    private readonly file: string,
    private readonly properties: Record<string, string> | undefined,
    /** Names are matched as written (prefix included): no namespace processing and a prefix declared. */
    readonly qualified: boolean,
  ) {
    this.reader = new Reader(lines, raw, this.modelDiagnostics, properties);
  }

  open(
    depth: number,
    lt: number,
    end: number,
    qname: string,
    local: string,
    namespace: string,
    attributes: readonly RawAttribute[],
    selfClosing: boolean,
  ): boolean {
    const name = this.qualified ? qname : local;
    if (depth === 0) return this.openRoot(lt, end, name, qname, namespace, attributes, selfClosing);
    if (depth > NODE_DEPTH) return true;
    let node = POOL[this.used];
    if (!node) POOL.push((node = new Node()));
    this.used++;
    node.reset(this, name, qname, lt, end);
    if (depth > 1) OPEN_NODES[depth - 2]!.addChild(node);
    if (!selfClosing) OPEN_NODES[depth - 1] = node;
    else if (depth === 1) this.finish(node);
    return true;
  }

  close(depth: number, start: number, lt: number, end: number): void {
    if (depth === 0) {
      this.webXml!.span = this.lines.span(start, end);
      return;
    }
    if (depth > NODE_DEPTH) return;
    const node = OPEN_NODES[depth - 1]!;
    node.contentEnd = lt;
    node.end = end;
    if (depth === 1) this.finish(node);
  }

  text(depth: number, from: number, to: number): void {
    if (depth >= 1 && depth <= NODE_DEPTH) OPEN_NODES[depth - 1]!.addText(from, to);
  }

  /** A child of the root is complete: read it, then reuse its nodes. */
  private finish(node: Node): void {
    // Only a name matched as written can have a prefix (a local name never does).
    if (this.qualified && node.qname.includes(':'))
      this.prefixed.push(prefixedElement(node.qname, this.lines.span(node.start, node.contentStart)));
    readElement(node, this.reader, this.webXml!);
    this.used = 0;
  }

  /** As rootAttribute, from the attributes as written: only the ones read are located. */
  private rootAttribute(attributes: readonly RawAttribute[], name: string): Located<string> | null {
    // An unprefixed attribute's local name is its qualified name; a prefixed one's never is.
    const a = attributes.find((x) => x.qname === name);
    if (!a) return null;
    const value =
      this.properties && a.value.includes('${') ? resolveProperties(a.value, this.properties).value : a.value;
    return { value, span: this.lines.span(a.valueStart, a.valueEnd) };
  }

  private openRoot(
    lt: number,
    end: number,
    name: string,
    qname: string,
    namespace: string,
    attributes: readonly RawAttribute[],
    selfClosing: boolean,
  ): boolean {
    // Another root (a snippet, a prefixed descriptor...) takes the tree path, which reports it.
    if (name !== 'web-app' && name !== 'web-fragment') return false;
    if (namespace && !(namespace in NAMESPACES))
      this.rootWarning = unknownNamespace(namespace, qname, this.lines.span(lt, end));
    const version = this.rootAttribute(attributes, 'version');
    this.webXml = newWebXml({
      file: this.file,
      root: name,
      generation: generationOf(namespace, null, version?.value ?? null),
      namespace: namespace || null,
      version,
      metadataComplete: this.rootAttribute(attributes, 'metadata-complete'),
      span: selfClosing ? this.lines.span(lt, end) : PENDING,
      doctype: null,
    });
    return true;
  }
}

/**
 * The model of a descriptor fast-xml.ts reads (no DOCTYPE, entity, CDATA...)
 * whose root is <web-app> or <web-fragment>, built without the tree; null for
 * every other document, which the tree path reads. The same model, diagnostics
 * and comments as the tree path (test/parser/direct-webxml.test.ts compares them).
 */
export function parseDirect(
  source: SourceFile,
  diagnostics: Diagnostic[],
  properties: Record<string, string> | undefined,
  options: WebXmlOptions,
): WebXml | null {
  const text = source.text;
  // Every span is worked out before this returns (a Node's lazily, while its element is read; Node.release ends that).
  const lines = LineIndex.transient(source.path, text);
  const sink = new DirectSink(lines, text, source.path, properties, !options.namespaceAware && text.includes('xmlns:'));
  const comments = scanSimple(text, lines, sink);
  for (const node of POOL) node.release();
  if (!comments || !sink.webXml) return null;
  source.comments = comments;
  // In the tree reader's order: the XML findings, then the descriptor's.
  if (tooDeepAt >= 0) diagnostics.push(deepNesting(lines, tooDeepAt));
  if (sink.rootWarning) diagnostics.push(sink.rootWarning);
  diagnostics.push(...sink.prefixed, ...sink.modelDiagnostics);
  return compact(sink.webXml);
}
