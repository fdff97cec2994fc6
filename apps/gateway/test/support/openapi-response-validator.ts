import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

interface HeaderDoc {
  required?: boolean;
  schema?: Schema;
}

interface ResponseDoc {
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, { schema?: Schema }>;
}

interface OperationDoc {
  responses?: Record<string, ResponseDoc>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

/** What a test received, as the validator needs it. */
export interface ObservedResponse {
  method: string;
  /** The request target: path and query. */
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  parameters: number;
  item: Record<string, unknown>;
}

const DOCUMENT_ID = 'urn:pfs:openapi';
const ERROR_ENVELOPE = 'ErrorEnvelope';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The document itself and its viewer: served beside the API, not part of it. */
const DOCUMENTATION_PATHS = [/^\/openapi\.json$/, /^\/docs(\/|$)/];
/** What the gateway answers a path that no operation has (api-decisions §1): the envelope, with one of these codes. */
const UNROUTED: Readonly<Record<number, string>> = { 400: 'invalid_request', 404: 'not_found' };

/**
 * Holds every response to the served OpenAPI 3.1 document: the status must be
 * documented for the operation, the body must match the schema of its media type (JSON Schema
 * 2020-12, checked by ajv with formats), and each documented header must be present when
 * required and match its schema when present. A path with no operation may only be answered
 * with the envelope's 404 `not_found` (or 400 `invalid_request` for a URL that cannot be read).
 */
export class OpenApiResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    if (!document.openapi.startsWith('3.1.')) throw new Error(`expected an OpenAPI 3.1 document, got ${document.openapi}`);
    // Strict: a keyword ajv does not know (e.g. a stray 3.0 `nullable`) fails the compile rather than being ignored.
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    // ajv honours 3.0's `nullable` by default; 3.1 has no such keyword, and neither do other validators.
    this.ajv.removeKeyword('nullable');
    this.ajv.addKeyword('example');
    this.ajv.addSchema({ $id: DOCUMENT_ID, $defs: withLocalRefs(document.components?.schemas ?? {}) });
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`),
        parameters: (template.match(/\{/g) ?? []).length,
        item,
      }))
      // A concrete path wins over a template that also matches it (OpenAPI's path matching).
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** Every way the response differs from the document; empty when it matches. */
  problems(response: ObservedResponse): string[] {
    const path = response.url.split('?')[0] ?? '';
    if (DOCUMENTATION_PATHS.some((pattern) => pattern.test(path))) return [];
    const method = response.method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(path) && HTTP_METHODS.has(method) && candidate.item[method] !== undefined);
    const where = `${response.method.toUpperCase()} ${route?.template ?? path}`;
    if (!route) return this.unrouted(where, response);

    const operation = route.item[method] as OperationDoc;
    const responses = operation.responses ?? {};
    const status = String(response.status);
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) return [`${where}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    return [...this.headerProblems(where, status, documented, response.headers), ...this.bodyProblems(where, status, documented, response)];
  }

  private unrouted(where: string, response: ObservedResponse): string[] {
    const code = UNROUTED[response.status];
    if (code === undefined) return [`${where}: no operation in the document, and answered ${response.status}`];
    const problems = this.check(`${where} (no operation) ${response.status}`, { $ref: `#/components/schemas/${ERROR_ENVELOPE}` }, parseJson(response.text));
    const answered = (parseJson(response.text) as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (answered !== code) problems.push(`${where}: no operation in the document, answered ${response.status} with code ${String(answered)} instead of ${code}`);
    return problems;
  }

  private headerProblems(where: string, status: string, documented: ResponseDoc, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where} ${status}: the required header ${name} is missing`);
        continue;
      }
      if (header.schema) problems.push(...this.check(`${where} ${status} header ${name}`, header.schema, headerValue(value, header.schema)));
    }
    return problems;
  }

  private bodyProblems(where: string, status: string, documented: ResponseDoc, response: ObservedResponse): string[] {
    const content = documented.content;
    if (!content) return response.text === '' ? [] : [`${where} ${status}: a body is sent where the document describes none`];
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const media = content[mediaType];
    if (!media) return [`${where} ${status}: Content-Type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (!media.schema) return [];
    if (mediaType !== 'application/json') return [];
    const body = parseJson(response.text);
    if (body === undefined) return [`${where} ${status}: the body is not JSON`];
    return this.check(`${where} ${status} body`, media.schema, body);
  }

  private check(where: string, schema: Schema, value: unknown): string[] {
    const validate = this.compile(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${where}: ${error.instancePath || '(root)'} ${error.message ?? 'is invalid'} (${error.schemaPath})`);
  }

  private compile(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(withLocalRefs(schema));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** `#/components/schemas/X` → the same schema in the registered document schema. */
function withLocalRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${DOCUMENT_ID}#/$defs/`)) as T;
}

/** A header is text; its schema may describe a number or a boolean. */
function headerValue(value: string, schema: Schema): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const validators = new Map<string, Promise<OpenApiResponseValidator>>();

/** The validator of the gateway at `baseUrl`, from the document it serves (fetched once per gateway). */
export function validatorFor(baseUrl: string): Promise<OpenApiResponseValidator> {
  let validator = validators.get(baseUrl);
  if (!validator) {
    validator = fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(15000) }).then(async (response) => {
      if (!response.ok) throw new Error(`${baseUrl}/openapi.json answered ${response.status}`);
      return new OpenApiResponseValidator((await response.json()) as OpenApiDocument);
    });
    validators.set(baseUrl, validator);
    // A failed fetch is not kept: the next request asks again.
    validator.catch(() => validators.delete(baseUrl));
  }
  return validator;
}

/** Fails (throws) when the response is not what the gateway's own document says it answers. */
export async function expectDocumented(baseUrl: string, response: ObservedResponse): Promise<void> {
  const problems = (await validatorFor(baseUrl)).problems(response);
  if (problems.length > 0) {
    throw new Error(`The response does not match ${baseUrl}/openapi.json:\n- ${problems.join('\n- ')}\nBody: ${response.text.slice(0, 2000)}`);
  }
}
