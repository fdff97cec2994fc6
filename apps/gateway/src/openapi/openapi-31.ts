import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const NULL_SCHEMA: Schema = { type: 'null' };
/** Keywords that describe a value rather than constrain it: they stay beside a nullable reference. */
const ANNOTATIONS = ['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs'];

/**
 * Serves the document as OpenAPI 3.1, whose schemas are JSON Schema 2020-12, so a validator
 * (Prism, ajv) and a client generator read `null` the same way. @nestjs/swagger writes 3.0's
 * `nullable: true`, which 3.0.3 defines to add null only to a `type` in the same schema: beside
 * `allOf: [{$ref}]` or a referenced enum it admits nothing, and validators reject the `null`
 * the gateway sends. This is the one place nullability is written:
 * - a nullable scalar: `type: ["string", "null"]` (and `null` in its `enum`);
 * - a nullable reference (an object or a named enum): `anyOf: [{$ref}, {type: "null"}]`, its
 *   description beside it.
 * DTOs keep declaring `nullable: true`; it never reaches the served document.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = document as unknown as Schema;
  converted.openapi = '3.1.0';
  const components = asSchema(converted.components);
  for (const schema of Object.values(asSchema(components?.schemas) ?? {})) convertSchema(schema);
  for (const item of Object.values(asSchema(converted.paths) ?? {})) {
    const pathItem = asSchema(item);
    if (!pathItem) continue;
    convertParameters(pathItem.parameters);
    for (const operation of Object.values(pathItem)) {
      const op = asSchema(operation);
      if (!op || !asSchema(op.responses)) continue;
      convertParameters(op.parameters);
      convertContent(asSchema(op.requestBody)?.content);
      for (const response of Object.values(asSchema(op.responses) ?? {})) {
        convertContent(asSchema(response)?.content);
        for (const header of Object.values(asSchema(asSchema(response)?.headers) ?? {})) convertSchema(asSchema(header)?.schema);
      }
    }
  }
  return document;
}

function convertParameters(parameters: unknown): void {
  if (Array.isArray(parameters)) for (const parameter of parameters) convertSchema(asSchema(parameter)?.schema);
}

function convertContent(content: unknown): void {
  for (const media of Object.values(asSchema(content) ?? {})) convertSchema(asSchema(media)?.schema);
}

/** Rewrites one schema in place, then the schemas inside it. */
function convertSchema(value: unknown): void {
  const schema = asSchema(value);
  if (!schema) return;
  if ('nullable' in schema) {
    const nullable = schema.nullable === true;
    delete schema.nullable;
    if (nullable) admitNull(schema);
  }
  for (const bound of ['Minimum', 'Maximum'] as const) {
    // 3.0's boolean form: `minimum` plus `exclusiveMinimum: true` is 3.1's `exclusiveMinimum: <n>`.
    const exclusive = `exclusive${bound}`;
    const limit = bound.toLowerCase();
    if (typeof schema[exclusive] === 'boolean') {
      if (schema[exclusive] === true) schema[exclusive] = schema[limit];
      else delete schema[exclusive];
      if (schema[exclusive] !== undefined) delete schema[limit];
    }
  }
  for (const inner of Object.values(asSchema(schema.properties) ?? {})) convertSchema(inner);
  for (const key of ['items', 'additionalProperties', 'not']) convertSchema(schema[key]);
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach(convertSchema);
  }
}

function admitNull(schema: Schema): void {
  const reference = typeof schema.$ref === 'string' || Array.isArray(schema.allOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
  if (!reference && typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return;
  }
  // Everything but the annotations becomes the non-null alternative; Nest's `type: 'object'`
  // beside a reference only repeats what the reference says.
  const alternative: Schema = {};
  for (const [key, inner] of Object.entries(schema)) {
    if (ANNOTATIONS.includes(key)) continue;
    alternative[key] = inner;
    delete schema[key];
  }
  if (Array.isArray(alternative.allOf) && alternative.allOf.length === 1 && Object.keys(alternative).every((key) => key === 'allOf' || key === 'type')) {
    schema.anyOf = [alternative.allOf[0], { ...NULL_SCHEMA }];
  } else {
    schema.anyOf = [alternative, { ...NULL_SCHEMA }];
  }
}

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}
