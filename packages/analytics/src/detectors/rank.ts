import type { Suspicion, SuspicionKind } from "./evidence.ts";

/** An inspector's verdict on an earlier suspicion (states of the suspect list). */
export interface Verdict {
  kind: SuspicionKind;
  state: "confirmed" | "dismissed";
}

export interface RankedSubject {
  subject: string;
  /** 0..1, the subject's suspicions combined and weighed by how often their kinds proved right. */
  rank: number;
  suspicions: Suspicion[];
}

/**
 * How often a kind of suspicion proved right on a visit, (confirmed + 1) / (visited + 2): a new
 * site starts every kind at one half, and each verdict moves it, so a detector that keeps sending
 * inspectors to nothing sinks down the list without being switched off.
 */
export function kindPrecision(verdicts: readonly Verdict[]): Map<SuspicionKind, number> {
  const counts = new Map<SuspicionKind, { confirmed: number; visited: number }>();
  for (const verdict of verdicts) {
    const count = counts.get(verdict.kind) ?? { confirmed: 0, visited: 0 };
    count.visited++;
    if (verdict.state === "confirmed") count.confirmed++;
    counts.set(verdict.kind, count);
  }
  return new Map([...counts].map(([kind, count]) => [kind, (count.confirmed + 1) / (count.visited + 2)]));
}

/**
 * The list to visit: one entry per meter or node, its suspicions combined as independent evidence
 * (1 − Π(1 − s·w), w the kind's precision against the prior one half), best first.
 */
export function rankSuspects(
  suspicions: readonly Suspicion[],
  verdicts: readonly Verdict[] = [],
): RankedSubject[] {
  const precision = kindPrecision(verdicts);
  const bySubject = new Map<string, Suspicion[]>();
  for (const suspicion of suspicions) {
    const list = bySubject.get(suspicion.subject) ?? [];
    list.push(suspicion);
    bySubject.set(suspicion.subject, list);
  }
  return [...bySubject]
    .map(([subject, list]) => {
      const clear = list.reduce((product, suspicion) => {
        const weight = Math.min(1, (precision.get(suspicion.kind) ?? 0.5) * 2);
        return product * (1 - suspicion.score * weight);
      }, 1);
      return { subject, rank: 1 - clear, suspicions: [...list].sort((a, b) => b.score - a.score) };
    })
    .sort((a, b) => b.rank - a.rank || a.subject.localeCompare(b.subject));
}
