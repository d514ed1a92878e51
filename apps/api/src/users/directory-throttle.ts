import { LIMITS } from '@hdp/contract';
import { tooManyRequests } from '../http/api-error';

const WINDOW_MS = 60_000;

/**
 * How often one user may search the member directory: `LIMITS.directorySearchesPerMinute` in any
 * minute, enough to type a colleague's name, too few to sweep the directory letter by letter.
 * Kept in this process's memory: several API processes each allow as many (the bound is per
 * process, which is what makes a sweep slow, not impossible; the prefix-only match is what keeps a
 * search narrow).
 */
export class DirectoryThrottle {
  private readonly searches = new Map<string, number[]>();

  constructor(private readonly perMinute = LIMITS.directorySearchesPerMinute) {}

  /** Counts one search by `userId`, or throws 429 with when the next is allowed. */
  take(userId: string, now = Date.now()): void {
    const recent = (this.searches.get(userId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= this.perMinute) {
      this.searches.set(userId, recent);
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000));
      throw tooManyRequests(
        `Too many directory searches: at most ${this.perMinute} a minute. Try again in ${retryAfterSeconds} seconds.`,
        retryAfterSeconds,
      );
    }
    recent.push(now);
    this.searches.set(userId, recent);
    // Forget users who stopped searching, so the map does not grow with every user ever seen.
    if (this.searches.size > 10_000) {
      for (const [id, times] of this.searches) if (!times.some((t) => t > now - WINDOW_MS)) this.searches.delete(id);
    }
  }
}
