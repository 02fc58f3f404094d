export {
  createFilesystemServer,
  FILESYSTEM_SERVER_INFO,
  StartupError,
  type FilesystemServer,
  type FilesystemServable,
  type FilesystemServerOptions,
} from './filesystem-server.js';
export { defaultConfig, DEFAULT_LIMITS, type ConfigOverrides, type FilesystemConfig, type Limits } from './config.js';
export { OPTIONS, parseCliArgs, parseFilesystemArgs, POSITIONALS, USAGE } from './cli-args.js';
export { ERROR_CODE_META } from './tools/tool-runtime.js';
export type { FsErrorCode } from './sandbox/errors.js';
export type { RootsMode } from './sandbox/roots-policy.js';
