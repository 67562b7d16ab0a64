// Preloaded with `node --import` by the start-up test: registers a module hook that appends the URL
// of every module the process loads to the file named by LOADED_MODULES_FILE.
import { register } from 'node:module';

register('./loaded-modules-hook.mjs', import.meta.url);
