import type { QueryParams } from "@meterline/api-client";
import { useCallback, useContext, useMemo } from "react";
import { ResourcePage, type ResourcePageProps } from "../../../crud/ResourcePage.tsx";
import { AreaTreeSearch } from "./AreaTreeLayout.tsx";

interface Props extends Omit<ResourcePageProps, "baseFilters" | "newRow"> {
  /** The area chosen in the tree beside the table; undefined for all areas. */
  areaId?: string;
  /** Values of a new row besides its area. */
  newRow?: () => Record<string, unknown>;
  /** Filters besides the area the page holds (a link's); stable while they stay. */
  filters?: QueryParams;
}

/**
 * A resource table narrowed to the area chosen beside it: its list and export calls carry
 * `areaId`, and a new row starts in that area when the resource has an area field.
 */
export function AreaScopedPage({ areaId, newRow, searchOmit, filters, onSearch, ...props }: Props) {
  // Stable while the area stays, so the table reloads only when the choice changes.
  const baseFilters = useMemo(
    () => (areaId || filters ? { ...filters, ...(areaId ? { areaId } : {}) } : undefined),
    [areaId, filters],
  );
  const hasArea = Boolean(props.def.fields.areaId);
  const withArea = useMemo(
    () => () => ({ ...(hasArea && areaId ? { areaId } : {}), ...newRow?.() }),
    [areaId, hasArea, newRow],
  );
  // The tree is the area filter, also while "all areas" is chosen: no second one in the search.
  const omitted = useMemo(() => ["areaId", ...(searchOmit ?? [])], [searchOmit]);
  const followTree = useContext(AreaTreeSearch);
  // The tree follows the search's tenant; the page's own listener (a chart above) the rest of it.
  const followSearch = useCallback(
    (next: QueryParams) => {
      followTree?.(next);
      onSearch?.(next);
    },
    [followTree, onSearch],
  );
  return (
    <ResourcePage
      {...props}
      baseFilters={baseFilters}
      newRow={withArea}
      searchOmit={omitted}
      onSearch={followSearch}
    />
  );
}
