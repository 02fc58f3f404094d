export {
  createSchemaCompiler,
  dialectOf,
  SchemaError,
  type SchemaCompiler,
  type SchemaCompilerOptions,
  type SchemaDialect,
  type SchemaValidator,
  type ValidationOutcome,
} from './compiler.js';
export type { FromJsonSchema, JsonSchemaLiteral } from './from-json-schema.js';
export {
  isStandardSchema,
  standardJsonSchema,
  standardParser,
  MAX_ISSUES,
  type StandardSchemaV1,
  type StandardJSONSchemaV1,
  type TypedSchema,
  type SchemaInput,
  type SchemaOutput,
  type SchemaSide,
  type JsonSchemaConverter,
  type ParseOutcome,
  type SchemaParser,
} from './standard-schema.js';
export { parserOf } from './schema-parser.js';
