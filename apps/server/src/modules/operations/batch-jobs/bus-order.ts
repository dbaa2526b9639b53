/**
 * The order a job's meters are sent in: one meter of each bus in turn. The gateway talks to one
 * meter at a time on a bus, so a window of meters that all hang on the same few buses would leave
 * every other bus idle; taking the buses in turn keeps all of them busy from the first window on.
 * Within a bus the meters keep the order they came in; meters without a bus come last.
 */
export function spreadOverBuses<T>(items: readonly T[], busOf: (item: T) => string | null): T[] {
  const buses = new Map<string, T[]>();
  const busless: T[] = [];
  for (const item of items) {
    const bus = busOf(item);
    if (bus === null) {
      busless.push(item);
      continue;
    }
    const queue = buses.get(bus);
    if (queue) queue.push(item);
    else buses.set(bus, [item]);
  }
  const queues = [...buses.values()];
  const ordered: T[] = [];
  for (let round = 0; ordered.length + busless.length < items.length; round++) {
    for (const queue of queues) {
      const item = queue[round];
      if (item !== undefined) ordered.push(item);
    }
  }
  return [...ordered, ...busless];
}
