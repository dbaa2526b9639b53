/**
 * What the pager says about the total. A bounded count (Page.totalExact false) answers one row
 * more than it promises: at least `total` rows means "more than total − 1", shown "N+", and the
 * pager keeps its next page, since the server counts further as the operator moves on.
 */
export function pagerTotal(
  total: number,
  exact: boolean,
): { key: "crud.total" | "crud.totalAtLeast"; total: number } {
  return exact ? { key: "crud.total", total } : { key: "crud.totalAtLeast", total: Math.max(0, total - 1) };
}
