// Signing out of this browser: the header's button, Settings and the device list all end the session here.
import { api, endSession } from './api.js';
import { t } from './i18n/index.js';
import { focusOnArrival } from './focus.js';

export async function signOut(): Promise<void> {
  try {
    await api('POST /api/auth/logout');
  } catch {
    // Signed out locally whatever the server says: the token is deleted below.
  }
  endSession(t().auth.signedOut);
  // The signed-in page goes away with the button: focus goes to the heading of the sign-in page.
  focusOnArrival('.auth h1');
}
