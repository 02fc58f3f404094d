export { registerAppResource, appTool, declareApps, type AppResourceDefinition } from './app-resource.js';
