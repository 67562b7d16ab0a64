// A readable name for the device of a session, from the User-Agent it signed in with ("Firefox on
// Linux", "Safari on iOS"; a script's first product token, "curl"), by bowser. Versions are left out:
// they change with every update, the device does not. Never echoes more of the header than a short
// token of letters, digits and . _ -, so a hostile User-Agent cannot put text of its own into a list or a mail.
import Bowser from 'bowser';

const PRODUCT_TOKEN = /^([A-Za-z][A-Za-z0-9._-]{0,39})(?:\/|\s|$)/;

/** "Firefox on Linux", "Chrome", "curl", or null when nothing readable can be made of it. */
export function deviceName(userAgent: string | null | undefined): string | null {
  const agent = userAgent?.trim();
  if (!agent) return null;
  let parsed: Bowser.Parser.ParsedResult | undefined;
  try {
    parsed = Bowser.parse(agent);
  } catch {
    parsed = undefined;
  }
  const browser = parsed?.browser.name;
  const os = parsed?.os.name;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  // A script or a library: its first product token ("curl/8.5.0" → "curl"), unless it is a browser's generic "Mozilla".
  const product = PRODUCT_TOKEN.exec(agent)?.[1];
  if (product && product !== 'Mozilla') return os ? `${product} on ${os}` : product;
  return os ? `Unknown browser on ${os}` : null;
}
