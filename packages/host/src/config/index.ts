// The configuration half of @wiremcp/host: reading host configuration files into servers to connect.
export type {
  ConfigFormat,
  ConfigSource,
  HostConfig,
  InputDefinition,
  InputResolver,
  NameFilter,
  OAuthSettings,
  ServerConfig,
  TransportKind,
} from './types.js';
export { CONFIG_FORMATS } from './types.js';
export { ConfigError, formatIssue, isConfigError, type ConfigIssue } from './config-error.js';
export { detectFormat, parseConfig, MAX_CONFIG_BYTES, type ParsedConfig } from './parse-config.js';
export { loadConfig, parseConfigText, workspaceFolderOf, type LoadConfigOptions } from './load-config.js';
export { candidateConfigFiles, findConfigFiles, userConfigFiles, PROJECT_CONFIG_FILES, type LocationOptions } from './locations.js';
export { substitute, SubstitutionError, type SubstitutionContext, type Substituted } from './substitute.js';
export { createRedactor, describeServerConfig, REDACTED } from './redact.js';
