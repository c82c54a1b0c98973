import { isIP } from 'node:net';

// Shared by the platforms whose settings refuse an open listener off loopback (console, Teams' insecure mode).

/** 127.0.0.0/8, ::1 and localhost. 0.0.0.0 and :: mean every interface, the opposite of loopback. */
export function isLoopback(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || name === '0:0:0:0:0:0:0:1' || name.startsWith('::ffff:127.');
  return false;
}
