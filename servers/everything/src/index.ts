export { createEverythingServer, EVERYTHING_SERVER_INFO } from './everything-package.js';
export { EVERYTHING_SERVER_IDENTITY, type EverythingServerOptions } from './everything-server.js';
export { OPTIONS, parseCliArgs, USAGE, type CliOptions } from './cli-args.js';
export { DYNAMIC_PROMPT, DYNAMIC_TOOL } from './list-change-tools.js';
export {
  DATA_TEMPLATE,
  ITEM_COUNT,
  ITEM_TEMPLATE,
  STATIC_BINARY_URI,
  STATIC_TEXT,
  STATIC_TEXT_URI,
  WATCHED_URI,
  itemUri,
  templateDataUri,
} from './resources.js';
export { ICON_SVG_DATA_URI, PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64, TONE_WAV_BASE64, WAV_MIME_TYPE } from './media.js';
