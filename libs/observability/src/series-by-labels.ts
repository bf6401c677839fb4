export type Labels<L extends string> = Readonly<Record<L, string>>;

/** One value per distinct label set, created on first use; label names are fixed per metric. */
export class SeriesByLabels<L extends string, V> {
  private readonly series = new Map<string, { labels: Labels<L>; value: V }>();

  constructor(
    private readonly labelNames: readonly L[],
    private readonly create: () => V,
  ) {}

  get(labels: Labels<L>): V {
    const key = JSON.stringify(this.labelNames.map((name) => labels[name]));
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels: this.pick(labels), value: this.create() };
      this.series.set(key, entry);
    }
    return entry.value;
  }

  entries(): { labels: Labels<L>; value: V }[] {
    return [...this.series.values()];
  }

  /** Copies only the declared names, in declared order, so the exposition is stable. */
  private pick(labels: Labels<L>): Labels<L> {
    return Object.fromEntries(this.labelNames.map((name) => [name, labels[name]])) as Labels<L>;
  }
}
