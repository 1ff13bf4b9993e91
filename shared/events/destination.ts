// Where a subscription may send its events (docs/events.md, "Destinations"): an `https` address whose
// host resolves to public addresses only, never a private, loopback, link-local or otherwise reserved
// one, checked when the subscription is made and again at each connection, on the address the
// connection then uses, so a name that later resolves elsewhere (DNS rebinding) reaches nothing inside.
// The local run alone allows loopback addresses, over plain http too, for a receiver on the same machine.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';

export const WEBHOOK_URL_MAX_LENGTH = 2000;

/** Whether a webhook may reach loopback addresses: the local run's receivers only. */
export interface DestinationRules {
  loopback: boolean;
}

/** Whether an address may be connected to: public unicast, or loopback where the rules allow it. */
export function allowedAddress(address: string, rules: DestinationRules): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (rules.loopback && range === 'loopback');
}

const resolveAll = promisify(dnsLookup);

/** A host as the URL writes it, without the brackets of an IPv6 literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Why `address` may not receive events, or undefined when it may: the URL's form, then every address its host resolves to. */
export async function refusedDestination(
  address: string,
  rules: DestinationRules,
): Promise<string | undefined> {
  if (address.length > WEBHOOK_URL_MAX_LENGTH) return `is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not carry a fragment';
  const host = bareHost(url);
  const plainAllowed = rules.loopback && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !plainAllowed) return 'must be an https URL';
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolveAll(host, { all: true })).map((a: LookupAddress) => a.address);
    } catch {
      return `names a host (${host}) that does not resolve`;
    }
  }
  const refused = addresses.find((a) => !allowedAddress(a, rules));
  if (refused !== undefined) return `resolves to ${refused}, which is not a public address`;
  if (url.protocol === 'http:' && !addresses.every((a) => ipaddr.process(a).range() === 'loopback')) {
    return 'must be an https URL';
  }
  return undefined;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node's http(s) requests that resolves as usual and refuses a host resolving to an
 * address the rules do not allow: the connection is made to the address checked, never resolved again.
 */
export function guardedLookup(rules: DestinationRules) {
  return (hostname: string, options: { all?: boolean } & object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find((a) => !allowedAddress(a.address, rules));
      if (refused || addresses.length === 0) {
        const denied: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address`,
        );
        denied.code = 'EADDRNOTALLOWED';
        return callback(denied, '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** Whether a literal address in a URL's host may be connected to (a lookup is not asked for one). */
export function allowedLiteralHost(url: URL, rules: DestinationRules): boolean {
  const host = bareHost(url);
  return !ipaddr.isValid(host) || allowedAddress(host, rules);
}
