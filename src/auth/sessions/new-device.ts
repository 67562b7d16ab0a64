// The new-device notice (docs/security.md, "New-device notice"): after a sign-in, off the request path,
// the account's recent devices are looked up by a keyed hash of "device name | network" (the device
// from the User-Agent, without versions; the network as the address's /24 for IPv4 or /48 for IPv6).
// A pair not seen for this account in 90 days mails the owner once: device, address, time and how to
// sign it out. The first sign-in of an account with no recorded device (after registration, or after
// an upgrade) only records it. Neither the address nor the User-Agent is kept here; at most
// DEVICES_PER_ACCOUNT pairs per account, the least recently seen forgotten first.
import { createHmac, hkdfSync } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { TransactionalDatabase } from '../../db/database.js';
import { addSeconds, type Clock } from '../../common/clock.js';
import { deviceName } from './devices.js';
import type { PublicUser } from '../accounts/users.js';

export const NEW_DEVICE_WINDOW_DAYS = 90;
/** Recent devices kept per account; the least recently seen beyond it are forgotten. */
const DEVICES_PER_ACCOUNT = 100;

export interface SignInClient {
  address: string;
  userAgent: string | undefined;
}

export interface NewDeviceNotice {
  user: PublicUser;
  device: string;
  address: string;
  at: Date;
}

/** The network of an address: its /24 (IPv4, also IPv4-mapped IPv6) or /48 (IPv6). */
export function networkOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${parsed.toByteArray().slice(0, 3).join('.')}.0/24`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${parts.join(':')}::/48`;
}

export function newDeviceText(notice: NewDeviceNotice, publicUrl: string): string {
  return [
    `Your timetrack account ${notice.user.email} was signed in to from a device and network it has not used in the last ${NEW_DEVICE_WINDOW_DAYS} days:`,
    '',
    `  Device:  ${notice.device}`,
    `  Address: ${notice.address}`,
    `  Time:    ${notice.at.toISOString()} (UTC)`,
    '',
    'If this was you, there is nothing to do.',
    '',
    'If it was not you: open timetrack, go to Settings → Security, choose "Sign out" beside this',
    'session (or "Sign out all other devices"), then change your password and turn on two-factor',
    `sign-in there: ${publicUrl}/`,
  ].join('\n');
}

export interface NewDeviceDeps {
  database: TransactionalDatabase;
  clock: Clock;
  /** The server secret: devices are stored as keyed hashes under a key derived from it. */
  loadSecret: () => Uint8Array;
}

export function createNewDeviceNotices({ database, clock, loadSecret }: NewDeviceDeps) {
  let key: Buffer | undefined;
  const keyOf = (device: string, network: string) => {
    key ??= Buffer.from(hkdfSync('sha256', loadSecret(), 'timetrack', 'timetrack login devices v1', 32));
    return createHmac('sha256', key).update(`${device}|${network}`).digest('hex');
  };

  /**
   * Records the sign-in's device and network; the notice to send when they are new for the account
   * (not seen in NEW_DEVICE_WINDOW_DAYS), else undefined. Once per pair: parallel sign-ins from one new
   * device give one notice (the account's rows are locked).
   */
  async function recordSignIn(user: PublicUser, client: SignInClient): Promise<NewDeviceNotice | undefined> {
    const device = deviceName(client.userAgent) ?? 'Unknown device';
    const keyHash = keyOf(device, networkOf(client.address));
    return database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      const now = clock.now();
      const nowIso = now.toISOString();
      const since = addSeconds(now, -NEW_DEVICE_WINDOW_DAYS * 86_400).toISOString();
      // Rows older than the window are kept (up to DEVICES_PER_ACCOUNT): an account that has rows has signed in before.
      const known = await trx.selectFrom('login_devices').select(['key_hash', 'last_seen_at']).where('user_id', '=', user.id).execute();
      const found = known.find((row) => row.key_hash === keyHash);
      if (found) {
        await trx.updateTable('login_devices').set({ last_seen_at: nowIso }).where('user_id', '=', user.id).where('key_hash', '=', keyHash).execute();
        if (found.last_seen_at > since) return undefined;
        return { user, device, address: client.address, at: now };
      }
      await trx.insertInto('login_devices').values({ user_id: user.id, key_hash: keyHash, first_seen_at: nowIso, last_seen_at: nowIso }).execute();
      if (known.length >= DEVICES_PER_ACCOUNT) {
        const oldest = await trx
          .selectFrom('login_devices')
          .select('key_hash')
          .where('user_id', '=', user.id)
          .orderBy('last_seen_at')
          .limit(known.length + 1 - DEVICES_PER_ACCOUNT)
          .execute();
        await trx
          .deleteFrom('login_devices')
          .where('user_id', '=', user.id)
          .where(
            'key_hash',
            'in',
            oldest.map((row) => row.key_hash),
          )
          .execute();
      }
      // The first device an account is seen with is where it signed up: nothing to tell.
      return known.length === 0 ? undefined : { user, device, address: client.address, at: now };
    });
  }

  return { recordSignIn };
}
