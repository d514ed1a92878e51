/**
 * The browser's time zone, told to the web server by a cookie. Dates are shown in the browser's
 * zone; the server renders a page's data (dates included) only when it would write them the same
 * way, so that the page React takes over in the browser is the page the server sent.
 */
export const TIME_ZONE_COOKIE = 'hdp-time-zone';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** A time zone's canonical name ('Etc/UTC' and 'UTC' are one zone), or undefined if it is not one. */
export function canonicalTimeZone(name: string | undefined): string | undefined {
  if (!name || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The zone this process writes dates in (the browser's own, in the browser). */
export function localTimeZone(): string | undefined {
  return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** In the browser: keeps the cookie equal to the browser's zone (it is not personal data, and is never sent elsewhere). */
export function rememberBrowserTimeZone(): void {
  const zone = localTimeZone();
  if (!zone || document.cookie.split('; ').includes(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`)) return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}

/** On the server: the zone a request's cookie names, if it names a real one. */
export function cookieTimeZone(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== TIME_ZONE_COOKIE) continue;
    try {
      return canonicalTimeZone(decodeURIComponent(value.join('=')));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** On the server: whether the browser that sent this cookie writes dates as this process does. */
export function browserSharesTimeZone(cookieHeader: string | undefined): boolean {
  const browser = cookieTimeZone(cookieHeader);
  return browser !== undefined && browser === localTimeZone();
}
