// Checks on the published OpenAPI document: a validator for the part of JSON Schema 2020-12 the document
// uses, and the structural rules of OpenAPI 3.1 the tests rely on. The validator refuses any keyword it does
// not implement, so a constraint can never be skipped silently: a new keyword in the document fails the
// test until it is handled here.

export type JsonObject = Record<string, unknown>;

/** Keywords that only annotate (they never make a value invalid). */
const ANNOTATIONS = new Set(['description', 'examples', 'title', 'format', 'deprecated']);
const ASSERTIONS = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMaximum',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'anyOf',
  'allOf',
]);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Resolves a local reference such as "#/components/schemas/UpiPayoutPending". */
export function resolveRef(document: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) || !(key in node)) throw new Error(`unresolved reference: ${ref}`);
    node = node[key];
  }
  return node;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      throw new Error(`unknown JSON type ${type}`);
  }
}

/** Every way `value` breaks `schema` (empty when it is valid), each with the path where it happens. */
export function schemaErrors(document: JsonObject, schema: unknown, value: unknown, path = '$'): string[] {
  if (!isObject(schema)) throw new Error(`schema at ${path} is not an object`);
  for (const keyword of Object.keys(schema)) {
    if (!ASSERTIONS.has(keyword) && !ANNOTATIONS.has(keyword)) {
      throw new Error(`the checker does not implement the keyword "${keyword}" (at ${path})`);
    }
  }
  const errors: string[] = [];
  const s = schema as {
    $ref?: string;
    type?: string | string[];
    enum?: unknown[];
    const?: unknown;
    pattern?: string;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    maximum?: number;
    exclusiveMaximum?: number;
    properties?: Record<string, unknown>;
    required?: string[];
    items?: unknown;
    minItems?: number;
    maxItems?: number;
    anyOf?: unknown[];
    allOf?: unknown[];
  };
  if (s.$ref !== undefined) errors.push(...schemaErrors(document, resolveRef(document, s.$ref), value, path));
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => hasType(value, t)))
      errors.push(`${path}: ${JSON.stringify(value)} is not ${types.join('|')}`);
  }
  if (s.enum !== undefined && !s.enum.some((option) => option === value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if ('const' in s && s.const !== value)
    errors.push(`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(s.const)}`);
  if (typeof value === 'string') {
    // JSON Schema counts code points, not UTF-16 units.
    const length = Array.from(value).length;
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value)) {
      errors.push(`${path}: ${JSON.stringify(value)} does not match ${s.pattern}`);
    }
    if (s.minLength !== undefined && length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength}`);
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) errors.push(`${path}: ${value} is below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) errors.push(`${path}: ${value} is above ${s.maximum}`);
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) {
      errors.push(`${path}: ${value} is not below ${s.exclusiveMaximum}`);
    }
  }
  if (isObject(value)) {
    for (const name of s.required ?? []) if (!(name in value)) errors.push(`${path}: ${name} is required`);
    for (const [name, member] of Object.entries(s.properties ?? {})) {
      if (name in value) errors.push(...schemaErrors(document, member, value[name], `${path}.${name}`));
    }
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
    if (s.items !== undefined)
      value.forEach((item, i) => errors.push(...schemaErrors(document, s.items, item, `${path}[${i}]`)));
  }
  if (s.anyOf !== undefined) {
    const branches = s.anyOf.map((branch) => schemaErrors(document, branch, value, path));
    if (!branches.some((e) => e.length === 0))
      errors.push(`${path}: matches no branch of anyOf (${branches.flat().join('; ')})`);
  }
  for (const branch of s.allOf ?? []) errors.push(...schemaErrors(document, branch, value, path));
  return errors;
}

/** Visits every schema object in the document, so keyword checks reach branches no test value takes. */
export function everySchema(document: JsonObject): { where: string; schema: JsonObject }[] {
  const found: { where: string; schema: JsonObject }[] = [];
  const visitSchema = (schema: unknown, where: string) => {
    if (!isObject(schema)) return;
    found.push({ where, schema });
    for (const [name, member] of Object.entries((schema.properties as JsonObject | undefined) ?? {})) {
      visitSchema(member, `${where}.properties.${name}`);
    }
    if (schema.items !== undefined) visitSchema(schema.items, `${where}.items`);
    ((schema.anyOf as unknown[] | undefined) ?? []).forEach((branch, i) => visitSchema(branch, `${where}.anyOf[${i}]`));
  };
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${where}[${i}]`));
    else if (isObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        if (key === 'schema') visitSchema(child, `${where}.schema`);
        else if (key !== 'examples' && key !== 'example') walk(child, `${where}.${key}`);
      }
    }
  };
  const components = (document.components as JsonObject | undefined) ?? {};
  for (const [name, schema] of Object.entries((components.schemas as JsonObject | undefined) ?? {})) {
    visitSchema(schema, `components.schemas.${name}`);
  }
  walk(document.paths, 'paths');
  walk(components.headers, 'components.headers');
  return found;
}

/** Every "$ref" string anywhere in the document. */
export function everyRef(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(everyRef);
  if (!isObject(node)) return [];
  return Object.entries(node).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : everyRef(child),
  );
}

/** Structural rules of OpenAPI 3.1 that the document must follow; returns what is broken. */
export function openApi31Problems(document: JsonObject): string[] {
  const problems: string[] = [];
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+$/.test(document.openapi)) {
    problems.push(`openapi is ${JSON.stringify(document.openapi)}, not 3.1.x`);
  }
  const info = document.info as JsonObject | undefined;
  if (!info || typeof info.title !== 'string' || !info.title || typeof info.version !== 'string' || !info.version) {
    problems.push('info needs a title and a version');
  }
  for (const ref of everyRef(document)) {
    try {
      resolveRef(document, ref);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  for (const { where, schema } of everySchema(document)) {
    for (const keyword of Object.keys(schema)) {
      if (!ASSERTIONS.has(keyword) && !ANNOTATIONS.has(keyword)) problems.push(`${where}: keyword ${keyword}`);
    }
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const type of types) if (!JSON_TYPES.has(type as string)) problems.push(`${where}: type ${String(type)}`);
  }
  const schemes = ((document.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
  const tags = new Set(((document.tags as JsonObject[] | undefined) ?? []).map((t) => t.name));
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, JsonObject>)) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    for (const [method, operation] of Object.entries(item) as [string, JsonObject][]) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) {
        problems.push(`${where}: not an HTTP method`);
        continue;
      }
      const id = operation.operationId as string | undefined;
      if (!id || operationIds.has(id)) problems.push(`${where}: operationId missing or repeated`);
      else operationIds.add(id);
      for (const tag of (operation.tags as string[] | undefined) ?? []) {
        if (!tags.has(tag)) problems.push(`${where}: tag ${tag} is not declared`);
      }
      for (const requirement of (operation.security as Record<string, unknown[]>[] | undefined) ?? []) {
        for (const name of Object.keys(requirement))
          if (!schemes[name]) problems.push(`${where}: no security scheme ${name}`);
      }
      for (const parameter of (operation.parameters as JsonObject[] | undefined) ?? []) {
        if (
          typeof parameter.name !== 'string' ||
          !['query', 'header', 'path', 'cookie'].includes(parameter.in as string)
        ) {
          problems.push(`${where}: parameter without name or location`);
        }
      }
      const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
      if (Object.keys(responses).length === 0) problems.push(`${where}: no responses`);
      for (const [code, response] of Object.entries(responses)) {
        if (!/^[1-5][0-9]{2}$/.test(code)) problems.push(`${where}: response key ${code}`);
        if (typeof response.description !== 'string') problems.push(`${where} ${code}: no description`);
      }
    }
  }
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.type !== 'apiKey' || scheme.in !== 'header' || typeof scheme.name !== 'string') {
      problems.push(`security scheme ${name} is not an apiKey header`);
    }
  }
  return problems;
}

/**
 * How a real answer breaks the body documented for its operation and HTTP status (empty when it fits);
 * an answer with a status the operation does not document is itself an error.
 */
export function documentedBodyErrors(
  document: JsonObject,
  path: string,
  method: string,
  answer: { status: number; json: unknown },
): string[] {
  const operation = (document.paths as Record<string, Record<string, JsonObject> | undefined>)[path]?.[method];
  if (!operation) return [`${method.toUpperCase()} ${path} is not documented`];
  const response = (operation.responses as Record<string, JsonObject | undefined>)[String(answer.status)];
  if (!response) return [`${method.toUpperCase()} ${path} documents no ${answer.status}`];
  const content = response.content as Record<string, { schema: unknown } | undefined> | undefined;
  const schema = content?.['application/json']?.schema;
  if (!schema) return [`${method.toUpperCase()} ${path} ${answer.status} documents no JSON body`];
  return schemaErrors(document, schema, answer.json);
}
