// Module customization hook (runs off the main thread): records each loaded URL, changes nothing.
import fs from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.LOADED_MODULES_FILE) fs.appendFileSync(process.env.LOADED_MODULES_FILE, `${url}\n`);
  return nextLoad(url, context);
}
