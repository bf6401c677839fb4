import { DUE_NOW, SYSTEM_CLOCK_LANES, type LaneDoc } from '../outbox/outbox-documents';

/**
 * Where a lane stands for the dispatcher. `ready`: its first delivery is due; `waiting`: due later
 * on its clock; `held`: not attempted until `until` (a moment of `performance.now()`: its event was
 * not projected yet); `sending`: its request is under way (it takes one of its endpoint's slots);
 * `recorded`: answered, and its record appended at `position`, which the outbox has not folded yet
 * (no position yet: the append is under way, or failed and the lane is read again at `until`).
 */
type Standing =
  | { state: 'ready' | 'waiting' | 'sending' }
  | { state: 'held'; until: number }
  | { state: 'recorded'; position: bigint | undefined; until: number };

interface Entry {
  lane: LaneDoc;
  standing: Standing;
}

/**
 * The dispatcher's picture of the outbox's lanes, kept from the lanes' change feed, so that a pass
 * costs what it starts instead of what it must skip. Each endpoint's ready lanes are taken in the
 * order they became ready. While a lane is attempted (sending, then recorded) or held, a newer
 * document of it (a later delivery joining the lane) replaces the one kept and changes nothing
 * else: the lane is placed again only once the outbox has folded its attempt (`settle`), as the
 * outbox then wrote it.
 */
export class LaneBook {
  private readonly entries = new Map<string, Entry>();
  private readonly ready = new Map<string, Set<string>>();
  private readonly waiting = new Set<string>();
  private readonly held = new Set<string>();
  private readonly recordedLanes = new Set<string>();
  private readonly sending = new Map<string, number>();
  private sendingTotal = 0;
  /** The earliest due time of a waiting lane on the system clock; lanes on test clocks are looked at on every `promote`. */
  private earliestSystemDue: string | undefined;
  private waitingOnTestClocks = 0;

  /** A lane as the outbox wrote it, from the change feed. A document older than the one kept is ignored. */
  see(lane: LaneDoc): void {
    const entry = this.entries.get(lane.id);
    if (entry && entry.lane.changed_at > lane.changed_at) return;
    // A later delivery joined the lane: it keeps its place.
    const sameHead = entry && entry.lane.head === lane.head && entry.lane.due_at === lane.due_at;
    if (entry && (sameHead || entry.standing.state === 'sending' || entry.standing.state === 'recorded' || entry.standing.state === 'held')) entry.lane = lane;
    else this.place(lane);
  }

  /** A recorded lane read again once the outbox folded its attempt (or the append failed): placed by that document. */
  settle(lane: LaneDoc): void {
    const entry = this.entries.get(lane.id);
    this.place(entry && entry.lane.changed_at > lane.changed_at ? entry.lane : lane);
  }

  /** The outbox emptied the lane (its last delivery ended). */
  forget(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.unplace(entry);
    this.entries.delete(id);
  }

  /** The endpoint was deleted: its ready lanes are forgotten (the others as they become ready). */
  forgetReady(endpointId: string): void {
    for (const id of [...(this.ready.get(endpointId) ?? [])]) this.forget(id);
  }

  /** Up to `count` ready lanes of the endpoint, oldest first, now sending. */
  take(endpointId: string, count: number): LaneDoc[] {
    const taken: LaneDoc[] = [];
    for (const id of this.ready.get(endpointId) ?? []) {
      if (taken.length === count) break;
      const entry = this.entries.get(id)!;
      this.unplace(entry);
      entry.standing = { state: 'sending' };
      this.sending.set(endpointId, this.sendingOf(endpointId) + 1);
      this.sendingTotal++;
      taken.push(entry.lane);
    }
    return taken;
  }

  /** No lane is under way, waiting for its record to be folded, or held. */
  quiet(): boolean {
    return this.sendingTotal === 0 && this.recordedLanes.size === 0 && this.held.size === 0;
  }

  /** The endpoints with a ready lane. */
  endpointsWithReadyLanes(): string[] {
    return [...this.ready.keys()];
  }

  /** The lanes of the endpoint whose requests are under way. */
  sendingOf(endpointId: string): number {
    return this.sending.get(endpointId) ?? 0;
  }

  get totalSending(): number {
    return this.sendingTotal;
  }

  /** The receiver answered (or did not in time): the endpoint's slot is free, the lane waits for its record. */
  answered(id: string): void {
    const entry = this.landed(id);
    if (!entry) return;
    entry.standing = { state: 'recorded', position: undefined, until: Infinity };
    this.recordedLanes.add(id);
  }

  /** The lane's attempt was recorded at `position`; undefined: the append failed, and the lane is read again at `retryAt`. */
  recorded(id: string, position: bigint | undefined, retryAt = Infinity): void {
    const entry = this.entries.get(id);
    if (entry?.standing.state === 'recorded') entry.standing = { state: 'recorded', position, until: retryAt };
  }

  /** The request was not sent (its event is not projected yet): the lane is ready again at `until`. */
  hold(id: string, until: number): void {
    const entry = this.landed(id);
    if (!entry) return;
    entry.standing = { state: 'held', until };
    this.held.add(id);
  }

  /** The recorded lanes whose records the outbox folded by `checkpoint`, and those whose append failed that are due a new look at `now`. */
  foldedBy(checkpoint: bigint, now: number): string[] {
    const folded: string[] = [];
    for (const id of this.recordedLanes) {
      const { standing } = this.entries.get(id)!;
      if (standing.state !== 'recorded') continue;
      if (standing.position === undefined ? standing.until <= now : standing.position <= checkpoint) folded.push(id);
    }
    return folded;
  }

  /**
   * Makes ready the held lanes whose moment (of `performance.now()`) passed and the waiting lanes
   * now due, given the time on each of their clocks (`nowOn`, from `waitingClocks`; a clock it
   * does not name holds its lanes back).
   */
  promote(now: number, nowOn: ReadonlyMap<string, string>): void {
    for (const id of [...this.held]) {
      const entry = this.entries.get(id)!;
      if (entry.standing.state === 'held' && entry.standing.until <= now) this.place(entry.lane, true);
    }
    const systemNow = nowOn.get(SYSTEM_CLOCK_LANES);
    const systemDue = this.earliestSystemDue !== undefined && systemNow !== undefined && this.earliestSystemDue <= systemNow;
    if (!systemDue && this.waitingOnTestClocks === 0) return;
    for (const id of [...this.waiting]) {
      const { lane } = this.entries.get(id)!;
      const clockNow = nowOn.get(lane.clock);
      if (clockNow !== undefined && lane.due_at <= clockNow) this.place(lane, true);
    }
    this.earliestSystemDue = undefined;
    for (const id of this.waiting) this.noteWaiting(this.entries.get(id)!.lane);
  }

  /** The clocks of the waiting lanes, to read before `promote`. */
  waitingClocks(): Set<string> {
    const clocks = new Set<string>();
    if (this.earliestSystemDue !== undefined) clocks.add(SYSTEM_CLOCK_LANES);
    if (this.waitingOnTestClocks > 0) for (const id of this.waiting) clocks.add(this.entries.get(id)!.lane.clock);
    return clocks;
  }

  /** Files a lane as ready when it is due (at once, or `due`), otherwise as waiting. */
  private place(lane: LaneDoc, due = false): void {
    const existing = this.entries.get(lane.id);
    if (existing) this.unplace(existing);
    if (due || lane.due_at === DUE_NOW) {
      this.entries.set(lane.id, { lane, standing: { state: 'ready' } });
      let ready = this.ready.get(lane.webhook_endpoint_id);
      if (!ready) this.ready.set(lane.webhook_endpoint_id, (ready = new Set()));
      ready.add(lane.id);
      return;
    }
    this.entries.set(lane.id, { lane, standing: { state: 'waiting' } });
    this.waiting.add(lane.id);
    if (lane.clock !== SYSTEM_CLOCK_LANES) this.waitingOnTestClocks++;
    this.noteWaiting(lane);
  }

  private noteWaiting(lane: LaneDoc): void {
    if (lane.clock === SYSTEM_CLOCK_LANES && (this.earliestSystemDue === undefined || lane.due_at < this.earliestSystemDue)) this.earliestSystemDue = lane.due_at;
  }

  /** Takes a lane out of wherever it is filed. */
  private unplace({ lane, standing }: Entry): void {
    switch (standing.state) {
      case 'ready': {
        const ready = this.ready.get(lane.webhook_endpoint_id)!;
        ready.delete(lane.id);
        if (ready.size === 0) this.ready.delete(lane.webhook_endpoint_id);
        return;
      }
      case 'waiting':
        this.waiting.delete(lane.id);
        if (lane.clock !== SYSTEM_CLOCK_LANES) this.waitingOnTestClocks--;
        return;
      case 'held':
        this.held.delete(lane.id);
        return;
      case 'recorded':
        this.recordedLanes.delete(lane.id);
        return;
      case 'sending':
        this.landed(lane.id);
    }
  }

  /** Frees the endpoint's slot of a sending lane; undefined for a lane not sending (forgotten meanwhile). */
  private landed(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry?.standing.state !== 'sending') return undefined;
    const endpointId = entry.lane.webhook_endpoint_id;
    this.sending.set(endpointId, this.sendingOf(endpointId) - 1);
    this.sendingTotal--;
    return entry;
  }
}
