/**
 * Counts what reaches the browser from notebooks (HTTP answers and kernel/terminal WebSocket
 * messages), per user, notebook and workbench, in hourly buckets kept for a day. The limits apply
 * to the user: the person at the screen is who takes data away, whichever notebook it comes from.
 * Counts live in this process, with the notebooks and sessions they describe (a restart stops
 * the notebooks; the holds the hard limit places are in the database).
 */
export interface EgressSubject {
  userId: string;
  notebookId: string;
  workbenchId: string;
}

export interface EgressLimits {
  softBytesPerHour: number;
  hardBytesPerDay: number;
}

export interface EgressTotals {
  /** The user's bytes in the current hour and in the last 24 hours. */
  userHour: number;
  userDay: number;
  /** The notebook's and the workbench's bytes in the last 24 hours (for the alert and the audit). */
  notebookDay: number;
  workbenchDay: number;
}

export interface EgressListener {
  /** The user passed the soft limit in this hour (told once per hour). */
  soft(subject: EgressSubject, totals: EgressTotals): void;
  /** The user passed the hard limit in the last 24 hours (told once, until reset). */
  hard(subject: EgressSubject, totals: EgressTotals): void;
}

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

/** Bytes per hour bucket for the last 24 hours, with the day's sum kept up to date. */
class HourlyCounter {
  private readonly buckets = new Map<number, number>();
  private day = 0;
  private expiredAt = -1;

  add(hour: number, bytes: number): void {
    this.expire(hour);
    this.buckets.set(hour, (this.buckets.get(hour) ?? 0) + bytes);
    this.day += bytes;
  }

  hour(hour: number): number {
    return this.buckets.get(hour) ?? 0;
  }

  lastDay(hour: number): number {
    this.expire(hour);
    return this.day;
  }

  /** Drops the buckets older than a day, once per hour at most. */
  private expire(hour: number): void {
    if (hour === this.expiredAt) return;
    this.expiredAt = hour;
    for (const [bucket, bytes] of this.buckets) {
      if (bucket <= hour - DAY_HOURS) {
        this.buckets.delete(bucket);
        this.day -= bytes;
      }
    }
  }
}

export class EgressMeter {
  private readonly users = new Map<string, HourlyCounter>();
  private readonly notebooks = new Map<string, HourlyCounter>();
  private readonly workbenches = new Map<string, HourlyCounter>();
  /** user → the hour of the last soft alert; users over the hard limit. */
  private readonly alerted = new Map<string, number>();
  private readonly held = new Set<string>();

  constructor(
    private readonly limits: EgressLimits,
    private readonly listener: EgressListener,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts bytes that reached a user's browser from a notebook. */
  count(subject: EgressSubject, bytes: number): void {
    if (bytes <= 0) return;
    const hour = Math.floor(this.now() / HOUR_MS);
    const user = counterOf(this.users, subject.userId);
    user.add(hour, bytes);
    counterOf(this.notebooks, subject.notebookId).add(hour, bytes);
    counterOf(this.workbenches, subject.workbenchId).add(hour, bytes);
    const userHour = user.hour(hour);
    const overSoft = userHour > this.limits.softBytesPerHour && this.alerted.get(subject.userId) !== hour;
    const userDay = user.lastDay(hour);
    const overHard = !this.held.has(subject.userId) && userDay > this.limits.hardBytesPerDay;
    if (!overSoft && !overHard) return;
    const totals: EgressTotals = {
      userHour,
      userDay,
      notebookDay: this.notebooks.get(subject.notebookId)!.lastDay(hour),
      workbenchDay: this.workbenches.get(subject.workbenchId)!.lastDay(hour),
    };
    if (overSoft) {
      this.alerted.set(subject.userId, hour);
      this.listener.soft(subject, totals);
    }
    if (overHard) {
      this.held.add(subject.userId);
      this.listener.hard(subject, totals);
    }
  }

  /** A hold was lifted: the user starts the day afresh. */
  reset(userId: string): void {
    this.users.delete(userId);
    this.alerted.delete(userId);
    this.held.delete(userId);
  }
}

function counterOf(map: Map<string, HourlyCounter>, key: string): HourlyCounter {
  let counter = map.get(key);
  if (!counter) {
    counter = new HourlyCounter();
    map.set(key, counter);
  }
  return counter;
}
