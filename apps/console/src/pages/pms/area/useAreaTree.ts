import { resourceBase, resources, type TreeNode } from "@meterline/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, describeError, reportNetworkError } from "../../../app/api.ts";

const TREE_PATH = `${resourceBase(resources.area)}/tree`;

/**
 * The tenant's area forest (area/tree); only the latest load may write the state. `tenantId` narrows
 * the platform administrator's forest to one tenant (the server ignores it for anyone else).
 */
export function useAreaTree(tenantId?: string) {
  const [state, setState] = useState<{ nodes: TreeNode[]; loading: boolean; error: string | null }>({
    nodes: [],
    loading: true,
    error: null,
  });
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const nodes = await api.get<TreeNode[]>(TREE_PATH, tenantId ? { tenantId } : undefined);
      if (call === latest.current) setState({ nodes, loading: false, error: null });
    } catch (error) {
      reportNetworkError(error);
      if (call === latest.current) setState({ nodes: [], loading: false, error: describeError(error) });
    }
  }, [tenantId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}
