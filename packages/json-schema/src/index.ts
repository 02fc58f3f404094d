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
